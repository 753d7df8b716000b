package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("honest framing of a tax artifact")
class HonestFramingTests {

	@Test
	@DisplayName("the composed framing is honest, on a node and on the engine double")
	void composedIsHonest() {
		assertThat(HonestFraming.problems(HonestFraming.compose(false, "vllm", 8, 64), false)).isEmpty();
		assertThat(HonestFraming.problems(HonestFraming.compose(true, "vllm", 8, 64), true)).isEmpty();
	}

	@Test
	@DisplayName("a framing that claims a speed win fails, naming the claim")
	void speedClaimFails() {
		String framing = HonestFraming.compose(false, "vllm", 8, 64) + " The gateway makes vLLM 3% faster.";
		assertThat(HonestFraming.problems(framing, false)).containsExactly("claims a speed win ('faster')");
		assertThat(HonestFraming.problems("Expected >= 1; the gateway reduces latency.", false))
			.containsExactly("claims a speed win ('reduces latency')");
	}

	@Test
	@DisplayName("a simulated run whose framing omits SIMULATED or the engine double fails")
	void simulatedMustSaySo() {
		String node = HonestFraming.compose(false, "vllm", 8, 64);
		assertThat(HonestFraming.problems(node, true)).containsExactly("a run on the engine double does not say SIMULATED",
				"a run on the engine double does not name the engine double");
	}

	@Test
	@DisplayName("a framing without the tax >= 1 expectation fails")
	void expectationRequired() {
		assertThat(HonestFraming.problems("Gateway vs raw vLLM, 8 samples per leg.", false))
			.containsExactly("does not state that the tax is expected to be >= 1");
		assertThat(HonestFraming.problems(null, false)).contains("does not state that the tax is expected to be >= 1");
	}
}
