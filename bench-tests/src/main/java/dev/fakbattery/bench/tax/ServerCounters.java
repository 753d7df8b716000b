package dev.fakbattery.bench.tax;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.metrics.MetricsScrape;
import dev.fakbattery.wire.JsonNumbers;

/**
 * What a server whose metric names the harness does not know (the gateway under test) counted during an arm: every
 * series of its Prometheus {@code /metrics} that changed, read before and after. The reference gateway's
 * {@code fak_gateway_adjudications_total{action=...}} and {@code fak_gateway_quarantines_total} show its adjudication
 * share this way; a gateway without {@code /metrics} is recorded as unavailable, with the reason.
 *
 * @param url the page read
 * @param changes series that changed, {@code name{labels}} to the change
 * @param unavailable why the page could not be read; empty when it was
 * @since 0.3
 */
public record ServerCounters(URI url, Map<String, Double> changes, Optional<String> unavailable) {

	/** Reads the page of the server at {@code baseUrl} now; {@link #after()} reads it again. */
	public static Before before(URI baseUrl) {
		return new Before(baseUrl, MetricsScrape.of(baseUrl));
	}

	/**
	 * A first read, waiting for the second.
	 *
	 * @param baseUrl the server's base URL
	 * @param scrape the first read
	 * @since 0.3
	 */
	public record Before(URI baseUrl, MetricsScrape scrape) {

		/** Reads again and keeps what changed. */
		public ServerCounters after() {
			return between(scrape, MetricsScrape.of(baseUrl));
		}
	}

	/** What changed between two reads. */
	public static ServerCounters between(MetricsScrape before, MetricsScrape after) {
		Optional<String> unavailable = before.unavailable().or(after::unavailable);
		return new ServerCounters(before.url(), unavailable.isPresent() ? Map.of() : MetricsScrape.changes(before, after), unavailable);
	}

	/** {@code url, available}, then {@code changes} or {@code unavailable}. */
	public void writeTo(ObjectNode node) {
		node.put("url", url.toString());
		node.put("available", unavailable.isEmpty());
		unavailable.ifPresent(why -> node.put("unavailable", why));
		if (unavailable.isEmpty()) {
			ObjectNode series = node.putObject("changes");
			changes.forEach((name, change) -> JsonNumbers.put(series, name, change, 3));
		}
	}
}
