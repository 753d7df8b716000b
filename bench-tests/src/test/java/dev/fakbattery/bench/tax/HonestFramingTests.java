package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fakbattery.core.stats.ConfidenceInterval;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("honest framing of a tax artifact: the numbers must not contradict it")
class HonestFramingTests {

	private static ConfidenceInterval ci(double estimate, double lo, double hi) {
		return new ConfidenceInterval("ratio of medians", estimate, lo, hi, 0.95, 2000, 1L, java.util.Optional.empty());
	}

	private static final ConfidenceInterval FLOOR = ci(1.000, 0.995, 1.006);

	@Test
	@DisplayName("a tax at or above the noise floor does not contradict the framing")
	void consistent() {
		assertThat(HonestFraming.contradiction(ci(1.02, 1.01, 1.03), FLOOR)).isEmpty();
		assertThat(HonestFraming.contradiction(ci(0.998, 0.990, 1.004), FLOOR)).isEmpty();
	}

	@Test
	@DisplayName("a gateway measured faster than the raw engine beyond noise contradicts it, naming both intervals")
	void gatewayFasterBeyondNoise() {
		assertThat(HonestFraming.contradiction(ci(0.95, 0.93, 0.97), FLOOR)).hasValue(
				"the gateway measured faster than the raw engine beyond noise: latency_tax 0.9500 [0.9300, 0.9700] lies below "
						+ "the A/A floor [0.9950, 1.0060]; the arms were not comparable");
	}

	@Test
	@DisplayName("the framing states the >= 1 expectation, and SIMULATED with the engine double on the double")
	void composed() {
		assertThat(HonestFraming.compose(false, "vllm", 8, "fixed counting prompt, max_tokens 64")).contains("expected to be >= 1")
				.doesNotContain("SIMULATED");
		assertThat(HonestFraming.compose(true, "vllm", 8, "fixed counting prompt, max_tokens 64")).contains("SIMULATED")
				.contains("engine double");
	}
}
