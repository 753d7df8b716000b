package dev.fakbattery.bench.headtohead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;

import dev.fakbattery.core.ConfigurationException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("engine.compare rows")
class EngineRowTests {

	@Test
	@DisplayName("parses one row per engine with its disclosure")
	void parsesRows() {
		assertThat(EngineRow.parse(
				"vllm=http://h:8000/v1,precision=fp8,batching=continuous; sglang=http://h:30000/v1/,batching=continuous,precision=bf16"))
				.containsExactly(new EngineRow("vllm", URI.create("http://h:8000/v1"), "fp8", "continuous"),
						new EngineRow("sglang", URI.create("http://h:30000/v1"), "bf16", "continuous"));
	}

	@Test
	@DisplayName("a row without its batching regime is refused")
	void refusesRowWithoutBatching() {
		String value = "vllm=http://h:8000/v1,precision=fp8;sglang=http://h:30000/v1,precision=fp8,batching=continuous";
		assertThatThrownBy(() -> EngineRow.parse(value)).isInstanceOf(ConfigurationException.class)
				.hasMessage("Unable to parse engine.compare value [" + value + "]: row [vllm=http://h:8000/v1,precision=fp8] is refused: "
						+ "it does not disclose its batching. " + EngineRow.FIX);
	}

	@Test
	@DisplayName("a row without its precision is refused")
	void refusesRowWithoutPrecision() {
		assertThatThrownBy(() -> EngineRow.parse("vllm=http://h:8000/v1,batching=continuous"))
				.hasMessageContaining("row [vllm=http://h:8000/v1,batching=continuous] is refused: it does not disclose its precision.");
	}

	@Test
	@DisplayName("a row whose URL does not end in /v1 is refused")
	void refusesBadUrl() {
		assertThatThrownBy(() -> EngineRow.parse("vllm=h:8000,precision=fp8,batching=continuous"))
				.hasMessageContaining("is refused: [h:8000] is not an http(s) URL ending in /v1.");
	}
}
