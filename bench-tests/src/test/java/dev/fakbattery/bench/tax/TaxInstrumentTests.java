package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.Measurement;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.stats.ConfidenceInterval;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A tax measured through a lagging engine double or with an A/A noise floor wider than +/-1 % measured nothing about
 * the gateway: the witness records it as invalidated (PENDING_MEASUREMENT with the reading and the fix).
 */
@DisplayName("tax witness: the instrument's own readings")
class TaxInstrumentTests {

	private static final ConfidenceInterval NARROW = ci(1.001, 0.996, 1.006);

	@Test
	@DisplayName("a double within its lag limit and an A/A floor within +/-1 % leave the measurement valid")
	void valid() {
		RungRecorder run = run();
		TaxReport.invalidations(run, runs(new UpstreamLag.Reading(400, 90, 600, 900)), NARROW);
		assertThat(run.invalidations()).isEmpty();
	}

	@Test
	@DisplayName("a double lagging past 1 ms p99 invalidates the run, with its reading and the fix")
	void laggingDouble() {
		RungRecorder run = run();
		TaxReport.invalidations(run, runs(new UpstreamLag.Reading(400, 90, 1830, 4100)), NARROW);
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("engine_double_lag");
		assertThat(run.invalidations().get(0).reason()).isEqualTo("invalid measurement, its own instrument says so: engine "
				+ "double scheduling lag p99 1830.0 us (p50 90.0, max 4100.0) over 400 emissions over the 1000 us limit: the double, "
				+ "not the gateway, added latency (run on a quieter machine (no other build), or with fewer streams or a slower decode pace)");
	}

	@Test
	@DisplayName("an A/A floor wider than +/-1 % invalidates the run: the noise is larger than the effect")
	void wideNoiseFloor() {
		RungRecorder run = run();
		TaxReport.invalidations(run, runs(Optional.empty()), ci(1.0098, 0.9976, 1.0174));
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("noise_floor");
		assertThat(run.invalidations().get(0).missing()).contains("A/A latency_tax_paired 1.0098 [0.9976, 1.0174] is wider than +/-1 %");
		assertThat(run.invalidations().get(0).howToProvide()).isEqualTo("more samples per arm (-Dtax.count=16; this run sent 0) on a "
				+ "quieter machine");
		assertThat(TaxReport.withinOnePercent(ci(1.0, 0.99, 1.01))).isTrue();
		assertThat(TaxReport.withinOnePercent(ci(1.0, 0.9899, 1.0))).isFalse();
	}

	@Test
	@DisplayName("a client lagging past 1 ms p99 invalidates the run, with its reading and the fix")
	void laggingClient() {
		RungRecorder run = run();
		TaxReport.invalidations(run, runs(Optional.empty(), ClientLag.ofMicros(100, 200, 2_500, 2_600, 2_700)), NARROW);
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("client_lag");
		assertThat(run.invalidations().get(0).missing()).isEqualTo("invalid measurement, its own instrument says so: load client "
				+ "scheduling lag p99 2701.0 us (p50 2501.0, max 2701.0) over 5 samples over the 1000 us limit: the client, not the "
				+ "gateway, added latency");
		assertThat(run.invalidations().get(0).howToProvide()).isEqualTo("run on a quieter machine (no other build), or with fewer streams");
	}

	@Test
	@DisplayName("a client lag with no sample cannot vouch for a run; a skipped run is not judged by it")
	void noClientSample() {
		RungRecorder unmeasured = run();
		TaxReport.invalidations(unmeasured, runs(Optional.empty(), ClientLag.none()), NARROW);
		assertThat(unmeasured.invalidations()).extracting(Measurement.Pending::name).containsExactly("client_lag");
		RungRecorder skipped = run();
		TaxReport.invalidations(skipped, TaxRuns.skipped("the gateway did not start"), NARROW);
		assertThat(skipped.invalidations()).isEmpty();
	}

	private static RungRecorder run() {
		return new RungRecorder(ArtifactId.TAX_WITNESS, HarnessConfig.of(name -> Optional.empty()));
	}

	private static TaxRuns runs(UpstreamLag.Reading lag) {
		return runs(Optional.of(lag));
	}

	private static TaxRuns runs(Optional<UpstreamLag.Reading> lag) {
		return runs(lag, ClientLag.ofMicros(80, 120, 300));
	}

	private static TaxRuns runs(Optional<UpstreamLag.Reading> lag, ClientLag client) {
		TaxRuns skipped = TaxRuns.skipped("placeholder");
		return new TaxRuns(skipped.raw(), skipped.gateway(), skipped.aaFirst(), skipped.aaSecond(), List.of(), 0, lag, Optional.empty(),
				client, Optional.empty(), Optional.empty());
	}

	private static ConfidenceInterval ci(double estimate, double lo, double hi) {
		return new ConfidenceInterval("ratio of medians", estimate, lo, hi, 0.95, 2000, 1L, Optional.empty());
	}
}
