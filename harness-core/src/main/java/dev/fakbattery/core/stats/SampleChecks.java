package dev.fakbattery.core.stats;

/** Checks on the samples of a ratio statistic. */
final class SampleChecks {

	private SampleChecks() {
	}

	/**
	 * Why a ratio cannot be estimated from these samples, or {@code null} when it can. Latencies and
	 * token rates are positive; an empty arm or a sample {@code <= 0} makes the ratio unknown.
	 * @throws IllegalArgumentException if a sample is {@code NaN} or infinite
	 */
	static String ratioProblem(double[] numerator, double[] denominator) {
		String problem = problem("numerator", numerator);
		return problem != null ? problem : problem("denominator", denominator);
	}

	private static String problem(String arm, double[] samples) {
		if (samples.length == 0) {
			return "no " + arm + " samples";
		}
		for (int i = 0; i < samples.length; i++) {
			double v = samples[i];
			if (!Double.isFinite(v)) {
				throw new IllegalArgumentException(arm + " sample " + i + " is not a finite number: " + v
						+ "; drop failed samples before computing statistics");
			}
		}
		for (int i = 0; i < samples.length; i++) {
			if (samples[i] <= 0) {
				return "a ratio needs positive samples; " + arm + " sample " + i + " is " + samples[i];
			}
		}
		return null;
	}
}
