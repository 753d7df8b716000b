package dev.fakbattery.bench.tax;

import java.util.Locale;
import java.util.Optional;

import dev.fakbattery.core.stats.ConfidenceInterval;

/**
 * The framing sentence of a tax artifact, and the check that the numbers do not contradict it. The framing says
 * the tax is expected to be at least 1 (the gateway adds work on the request path); a latency tax whose whole 95 %
 * interval lies below the A/A noise floor's interval says the gateway was faster than the raw engine beyond noise,
 * which means the two arms were not comparable (cache warmth, order, another model or machine), and the framing
 * cannot honestly stand.
 *
 * @since 0.1
 */
public final class HonestFraming {

	private HonestFraming() {
	}

	/** The framing of a tax witness over {@code count} interleaved conversations per arm of {@code workload}. */
	public static String compose(boolean simulated, String engine, int count, String workload) {
		String text = "Gateway tax witness: the gateway under test vs the raw " + engine + " engine, same model, the same "
				+ "seeded streamed requests (temperature 0; workload " + workload + "), " + count
				+ " conversations per arm in ABBA-interleaved order after a warm-up. latency_tax = gateway/raw median E2EL and "
				+ "decode_tps_tax = raw/gateway median decode tok/s, each with a 95% bootstrap interval; both are expected "
				+ "to be >= 1, because the gateway adds work on the request path. A value below 1 is noise (compare the "
				+ "A/A noise floor), not a gain.";
		if (simulated) {
			text += " SIMULATED: the upstream is the engine double (" + engine + " dialect), not a real engine, so these "
					+ "numbers describe the harness and the gateway on this machine, never " + engine + " performance.";
		}
		return text;
	}

	/**
	 * How the measured tax contradicts the framing: its interval lies entirely below the A/A noise floor's; empty
	 * when it does not (or when either interval is undefined: then nothing was measured to contradict it).
	 */
	public static Optional<String> contradiction(ConfidenceInterval tax, ConfidenceInterval noiseFloor) {
		if (!tax.isDefined() || !noiseFloor.isDefined() || tax.hi() >= noiseFloor.lo()) {
			return Optional.empty();
		}
		return Optional.of(String.format(Locale.ROOT, "the gateway measured faster than the raw engine beyond noise: latency_tax "
				+ "%.4f [%.4f, %.4f] lies below the A/A floor [%.4f, %.4f]; the arms were not comparable", tax.estimate(), tax.lo(),
				tax.hi(), noiseFloor.lo(), noiseFloor.hi()));
	}
}
