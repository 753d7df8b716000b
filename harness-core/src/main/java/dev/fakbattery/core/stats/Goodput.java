package dev.fakbattery.core.stats;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.JsonNumbers;

import org.apiguardian.api.API;

/**
 * Goodput under an {@link Slo}, as {@code vllm bench serve --goodput} computes it: a request is
 * good only if it completed and meets every SLO ({@code <=}); {@code request_goodput} is good
 * requests per second of benchmark duration.
 *
 * <p>{@link #goodFraction()} is good over <em>all</em> requests, failed ones included (as AIPerf's
 * {@code good_request_fraction}), so failures lower it. Unknown is {@code NaN}: no requests gives no
 * fraction, a duration that is not positive gives no rate.
 *
 * @param slo the objectives judged against
 * @param requests every request sent, failed ones included
 * @param completed requests that succeeded
 * @param good requests that succeeded and met every SLO
 * @param durationS benchmark duration in seconds (first dispatch to last response)
 * @param requestGoodput {@code good / durationS}
 * @param goodFraction {@code good / requests}
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record Goodput(Slo slo, int requests, int completed, int good, double durationS, double requestGoodput,
		double goodFraction) {

	/** Judges {@code requests} against {@code slo} over a run of {@code durationS} seconds. */
	public static Goodput of(Slo slo, List<RequestTiming> requests, double durationS) {
		int completed = 0;
		int good = 0;
		for (RequestTiming request : requests) {
			if (request.completed()) {
				completed++;
			}
			if (slo.isMetBy(request)) {
				good++;
			}
		}
		double rate = durationS > 0 && Double.isFinite(durationS) ? good / durationS : Double.NaN;
		double fraction = requests.isEmpty() ? Double.NaN : good / (double) requests.size();
		return new Goodput(slo, requests.size(), completed, good, durationS, rate, fraction);
	}

	/**
	 * Writes {@code goodput_slo}, {@code request_goodput} (vLLM's name), {@code good_requests},
	 * {@code good_fraction} and {@code goodput_requests}; unknown values are {@code null}.
	 */
	public void writeTo(ObjectNode node) {
		node.put("goodput_slo", slo.toString());
		JsonNumbers.put(node, "request_goodput", requestGoodput);
		node.put("good_requests", good);
		JsonNumbers.put(node, "good_fraction", goodFraction);
		node.put("goodput_requests", requests);
	}
}
