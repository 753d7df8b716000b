package dev.fakbattery.bench.tax;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.RequestDetail;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.TokenSource;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.Dialect;

/** Synthetic measurements for the report tests: outcomes, runs and levels with exactly the numbers a test needs. */
final class Synthetic {

	/** The check {@code name} the rung recorded; an assertion error when it recorded none. */
	static Check check(RungRecorder run, String name) {
		return run.checks()
				.stream()
				.filter(c -> c.name().equals(name))
				.findFirst()
				.orElseThrow(() -> new AssertionError("no check " + name));
	}

	static final ClientLag QUIET = ClientLag.ofMicros(80, 120, 300);

	static final ClientLag LATE = ClientLag.ofMicros(900, 1_800, 2_400);

	private Synthetic() {
	}

	/** A successful streamed request: {@code tokens} tokens, TTFT and E2EL as given, at conversation {@code index}, turn 0. */
	static RequestOutcome ok(String target, int index, double ttftMs, double e2elMs, int tokens) {
		return ok(target, index, 0, ttftMs, e2elMs, tokens, List.of());
	}

	static RequestOutcome ok(String target, int index, int turn, double ttftMs, double e2elMs, int tokens, List<RequestDetail.Call> calls) {
		long sent = 1_000_000_000L + index * 10_000_000L;
		long end = sent + Math.round(e2elMs * 1e6) + 100_000;
		RequestOutcome outcome = new RequestOutcome(target, index, false, sent, sent, end, 200, null, ttftMs, e2elMs, new double[]{ 1.0 },
				new double[]{ 1.0 }, true, tokens, TokenSource.USAGE, OptionalInt.of(20), "ok");
		return outcome.withDetail(new RequestDetail(index, turn, OptionalInt.of(16), tokens, OptionalInt.empty(), calls, "length"));
	}

	/** A failed request with HTTP {@code status}. */
	static RequestOutcome failed(String target, int index, int status) {
		return RequestOutcome.failed(target, index, false, 0, 0, 5_000_000, status, "HTTP " + status + ": boom", "boom")
				.withDetail(new RequestDetail(index, 0, OptionalInt.empty(), 8, OptionalInt.empty(), List.of(), null));
	}

	/** A run of {@code outcomes} over {@code durationS} seconds with the client's {@code lag}. */
	static LoadResult result(String target, List<RequestOutcome> outcomes, int notSent, double durationS, ClientLag lag) {
		return new LoadResult(target, "http://127.0.0.1:1/v1", "synthetic", 1, Double.NaN, outcomes.size() + notSent, outcomes, 0, 0,
				notSent, 0, Math.round(durationS * 1e9), durationS, Optional.empty(), false, lag);
	}

	/** {@code n} successful requests of E2EL {@code e2elMs} each. */
	static List<RequestOutcome> oks(String target, int n, double e2elMs) {
		List<RequestOutcome> outcomes = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			outcomes.add(ok(target, i, 10, e2elMs, 8));
		}
		return outcomes;
	}

	static ConfidenceInterval ci(double estimate, double lo, double hi) {
		return new ConfidenceInterval("ratio of medians", estimate, lo, hi, 0.95, 2000, 1L, Optional.empty());
	}

	static ConfidenceInterval undefined() {
		return ConfidenceInterval.undefined("ratio of medians", "no samples", 0.95, 0, 1L);
	}

	static RungRecorder run(ArtifactId artifact) {
		return new RungRecorder(artifact, HarnessConfig.of(name -> Optional.empty()));
	}

	/** Settings of the smoke profile, with the baseline in {@code dir} and {@code extra} configuration. */
	static TaxSettings settings(Path dir, Map<String, String> extra) {
		return TaxSettings.from(HarnessConfig.of(name -> Optional.ofNullable(switch (name) {
			case HarnessConstants.PROFILE -> "default";
			case HarnessConstants.BASELINE_FILE -> dir.resolve("baseline.json").toString();
			default -> extra.get(name);
		})));
	}

	static TaxUpstream simulated(UpstreamLag.Reading reading) {
		return TaxUpstream.simulated(java.net.URI.create("http://127.0.0.1:1/v1"), Dialect.VLLM, "the engine double", new UpstreamLag() {
			@Override
			public void reset() {
			}

			@Override
			public Reading read() {
				return reading;
			}
		}, TimingModel.defaults().batchingFormula());
	}
}
