package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("HarnessConfig: a bad value names the parameter, the value and the fix")
class HarnessConfigTests {

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}

	@Test
	void defaultsApplyWhenUnset() {
		HarnessConfig config = config(Map.of());
		assertThat(config.positiveInt(HarnessConstants.TAX_COUNT, 8)).isEqualTo(8);
		assertThat(config.positiveInts(HarnessConstants.SWEEP_CONCURRENCY, List.of(1, 8))).containsExactly(1, 8);
		assertThat(config.engine()).isEqualTo(Dialect.VLLM);
		assertThat(config.allowPending()).isFalse();
		assertThat(config.v1Url(HarnessConstants.BASE_URL)).isEmpty();
	}

	@Test
	void parsesGoodValues() {
		HarnessConfig config = config(Map.of("tax.count", "16", "sweep.concurrency", "1, 64,512", "engine", "SGLang",
				"base.url", "http://127.0.0.1:8000/v1/", "allow.pending", "TRUE"));
		assertThat(config.positiveInt(HarnessConstants.TAX_COUNT, 8)).isEqualTo(16);
		assertThat(config.positiveInts(HarnessConstants.SWEEP_CONCURRENCY, List.of())).containsExactly(1, 64, 512);
		assertThat(config.engine()).isEqualTo(Dialect.SGLANG);
		assertThat(config.v1Url(HarnessConstants.BASE_URL)).contains(URI.create("http://127.0.0.1:8000/v1"));
		assertThat(config.allowPending()).isTrue();
	}

	@Test
	void badIntegerNamesItself() {
		assertThatThrownBy(() -> config(Map.of("tax.count", "0")).positiveInt(HarnessConstants.TAX_COUNT, 8))
				.isInstanceOf(ConfigurationException.class)
				.hasMessage(
						"Unable to parse tax.count value [0]: expected a positive integer. Fix: pass -Dtax.count=8 or remove it to use the default.");
	}

	@Test
	void badListNamesItself() {
		assertThatThrownBy(() -> config(Map.of("sweep.concurrency", "1,x")).positiveInts(HarnessConstants.SWEEP_CONCURRENCY, List.of(1, 8)))
				.hasMessage(
						"Unable to parse sweep.concurrency value [1,x]: expected comma-separated positive integers. Fix: pass -Dsweep.concurrency=1,8 or remove it to use the default.");
	}

	@Test
	void badUrlNamesItself() {
		assertThatThrownBy(() -> config(Map.of("base.url", "127.0.0.1:8000")).v1Url(HarnessConstants.BASE_URL))
				.hasMessage(
						"Unable to parse base.url value [127.0.0.1:8000]: expected an http(s) URL ending in /v1. Fix: pass -Dbase.url=http://127.0.0.1:8000/v1 or remove it to use the default.");
	}

	@Test
	void badEngineNamesItself() {
		assertThatThrownBy(() -> config(Map.of("engine", "tgi")).engine())
				.hasMessage(
						"Unable to parse engine value [tgi]: expected one of vllm, sglang, llamacpp. Fix: pass -Dengine=vllm or remove it to use the default.");
	}

	@Test
	void badBooleanNamesItself() {
		assertThatThrownBy(() -> config(Map.of("allow.pending", "yes")).allowPending())
				.hasMessage(
						"Unable to parse allow.pending value [yes]: expected true or false. Fix: pass -Dallow.pending=false or remove it to use the default.");
	}

	@Test
	void determinismFailsClosed() {
		assertThat(Determinism.resolve(Optional.of("batch_invariance"))).isEqualTo(Determinism.BATCH_INVARIANCE);
		assertThat(Determinism.resolve(Optional.of("engine.vllm.determinism.deterministic_offline_scheduler")))
				.isEqualTo(Determinism.DETERMINISTIC_OFFLINE_SCHEDULER);
		assertThat(Determinism.resolve(Optional.of("on"))).isEqualTo(Determinism.UNAVAILABLE);
		assertThat(Determinism.resolve(Optional.empty())).isEqualTo(Determinism.UNAVAILABLE);
		assertThat(Determinism.UNAVAILABLE.temperatureZeroWitnessAllowed()).isFalse();
		assertThat(Determinism.BATCH_INVARIANCE.temperatureZeroWitnessAllowed()).isTrue();
	}
}
