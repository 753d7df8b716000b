package dev.fakbattery.bench.tax;

import java.util.List;
import java.util.Optional;

import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.metrics.EngineMetrics;
import dev.fakbattery.core.stats.Interleaving;
import dev.fakbattery.core.stats.SequentialPlan;

/**
 * What the tax witness measured: the raw and gateway arms (A/B), the A/A arms of the noise floor
 * (two raw clients on the same schedule), and the double's lag over both.
 *
 * @param raw the raw engine arm
 * @param gateway the gateway arm
 * @param aaFirst the first raw client of the A/A run
 * @param aaSecond the second raw client of the A/A run
 * @param order the ABBA schedule both runs followed
 * @param warmupFailed warm-up requests that failed, over all targets
 * @param lag the engine double's scheduling lag after warm-up; empty on a real engine or when nothing ran
 * @param skipped why nothing was measured; empty when the arms ran
 * @param clientLag the load client's own scheduling lag over the measured arms
 * @param engineMetrics the engine's {@code /metrics} before and after the A/B arms; empty when nothing ran
 * @param gatewayMetrics the gateway's {@code /metrics} before and after the A/B arms; empty when nothing ran
 * @param abStop where the A/B run's sequential stop stopped; empty when nothing ran or not recorded (tests)
 * @param aaStop where the A/A run's sequential stop stopped; empty likewise
 * @param warmupFailures the warm-up's failed requests, each naming its target ({@code raw}, {@code gateway},
 *        {@code raw_b}); empty where only their count is known (tests)
 * @param futility the reading that stopped the A/B run at its first look ({@link Futility#judgeWitness}), the A/A then not
 *        run; empty when it ran on
 * @param firstLookLag the load client's lag p99 in microseconds over each quarter of the A/B run's first look, in run
 *        order ({@link WitnessLook}); empty where the plan has no look before its cap or nothing ran
 * @since 0.1
 */
public record TaxRuns(ArmReport raw, ArmReport gateway, ArmReport aaFirst, ArmReport aaSecond, List<Interleaving.Arm> order,
		int warmupFailed, Optional<UpstreamLag.Reading> lag, Optional<String> skipped, ClientLag clientLag,
		Optional<EngineMetrics> engineMetrics, Optional<ServerCounters> gatewayMetrics, Optional<SequentialPlan.Stop> abStop,
		Optional<SequentialPlan.Stop> aaStop, List<RequestOutcome> warmupFailures, Optional<String> futility, List<Double> firstLookLag) {

	public TaxRuns {
		warmupFailures = List.copyOf(warmupFailures);
		firstLookLag = List.copyOf(firstLookLag);
	}

	/** Arms that ran on past their first look. */
	public TaxRuns(ArmReport raw, ArmReport gateway, ArmReport aaFirst, ArmReport aaSecond, List<Interleaving.Arm> order,
			int warmupFailed, Optional<UpstreamLag.Reading> lag, Optional<String> skipped, ClientLag clientLag,
			Optional<EngineMetrics> engineMetrics, Optional<ServerCounters> gatewayMetrics, Optional<SequentialPlan.Stop> abStop,
			Optional<SequentialPlan.Stop> aaStop, List<RequestOutcome> warmupFailures) {
		this(raw, gateway, aaFirst, aaSecond, order, warmupFailed, lag, skipped, clientLag, engineMetrics, gatewayMetrics, abStop, aaStop,
				warmupFailures, Optional.empty(), List.of());
	}

	/** These arms, stopped at their first look for futility with {@code reading}. */
	TaxRuns stoppedForFutility(String reading) {
		return new TaxRuns(raw, gateway, aaFirst, aaSecond, order, warmupFailed, lag, skipped, clientLag, engineMetrics, gatewayMetrics,
				abStop, aaStop, warmupFailures, Optional.of(reading), firstLookLag);
	}

	/** These arms, with the client's lag p99 over each quarter of their first look ({@code p99s}, microseconds). */
	TaxRuns withFirstLook(List<Double> p99s) {
		return new TaxRuns(raw, gateway, aaFirst, aaSecond, order, warmupFailed, lag, skipped, clientLag, engineMetrics, gatewayMetrics,
				abStop, aaStop, warmupFailures, futility, p99s);
	}

	/** Arms whose warm-up failures are known only by their count (tests of the report). */
	public TaxRuns(ArmReport raw, ArmReport gateway, ArmReport aaFirst, ArmReport aaSecond, List<Interleaving.Arm> order,
			int warmupFailed, Optional<UpstreamLag.Reading> lag, Optional<String> skipped, ClientLag clientLag,
			Optional<EngineMetrics> engineMetrics, Optional<ServerCounters> gatewayMetrics, Optional<SequentialPlan.Stop> abStop,
			Optional<SequentialPlan.Stop> aaStop) {
		this(raw, gateway, aaFirst, aaSecond, order, warmupFailed, lag, skipped, clientLag, engineMetrics, gatewayMetrics, abStop, aaStop,
				List.of());
	}

	/** The warm-up's failed requests of the target named {@code target}. */
	List<RequestOutcome> warmupFailuresOf(String target) {
		return warmupFailures.stream().filter(o -> o.target().equals(target)).toList();
	}

	/** Arms without a recorded sequential stop (tests of the report). */
	public TaxRuns(ArmReport raw, ArmReport gateway, ArmReport aaFirst, ArmReport aaSecond, List<Interleaving.Arm> order,
			int warmupFailed, Optional<UpstreamLag.Reading> lag, Optional<String> skipped, ClientLag clientLag,
			Optional<EngineMetrics> engineMetrics, Optional<ServerCounters> gatewayMetrics) {
		this(raw, gateway, aaFirst, aaSecond, order, warmupFailed, lag, skipped, clientLag, engineMetrics, gatewayMetrics, Optional.empty(),
				Optional.empty());
	}

	/** Arms measured without the client lag and metrics readings (tests of the report). */
	public TaxRuns(ArmReport raw, ArmReport gateway, ArmReport aaFirst, ArmReport aaSecond, List<Interleaving.Arm> order,
			int warmupFailed, Optional<UpstreamLag.Reading> lag, Optional<String> skipped) {
		this(raw, gateway, aaFirst, aaSecond, order, warmupFailed, lag, skipped, ClientLag.none(), Optional.empty(), Optional.empty());
	}

	/** Both arms skipped, with the reason: never a one-armed comparison. */
	public static TaxRuns skipped(String why) {
		return new TaxRuns(new ArmReport("raw_vllm", List.of()), new ArmReport("gateway", List.of()),
				new ArmReport("aa_raw_a", List.of()), new ArmReport("aa_raw_b", List.of()), List.of(), 0, Optional.empty(),
				Optional.of(why), ClientLag.none(), Optional.empty(), Optional.empty());
	}
}
