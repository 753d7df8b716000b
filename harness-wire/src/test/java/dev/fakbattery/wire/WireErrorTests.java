package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("WireError")
class WireErrorTests {

	@Test
	@DisplayName("vLLM >= 0.10.1 nests the error, with an int code and a type name")
	void vllmNested() {
		WireError error = WireError.parse(WireFixtures.read("vllm/error-404-model.json"));

		assertThat(error.shape()).isEqualTo(WireError.Shape.NESTED);
		assertThat(error.type()).contains("NotFoundError");
		assertThat(error.param()).contains("model");
		assertThat(error.code()).hasValue(404);
		assertThat(error.message()).contains("The model `gpt-4o` does not exist.");
	}

	@Test
	@DisplayName("the captured vLLM 0.11-era body ends in \" None\"; the reconstructed one does not")
	void vllmNoneSuffix() {
		WireError captured = WireError.parse(WireFixtures.read("vllm/captured/2025-10-07_vllm-error-400-nested.json"));
		WireError current = WireError.parse(WireFixtures.read("vllm/error-400.json"));

		assertThat(captured.message()).hasValueSatisfying(message -> assertThat(message).endsWith(" None"));
		assertThat(current.message()).hasValueSatisfying(message -> assertThat(message).doesNotEndWith(" None"));
		assertThat(captured.param()).as("null param reads as empty").isEmpty();
		assertThat(current.code()).hasValue(400);
	}

	@Test
	@DisplayName("vLLM <= 0.10.0 and SGLang chat use the flat shape")
	void flat() {
		WireError legacy = WireError.parse(WireFixtures.read("vllm/error-400-legacy.json"));
		WireError sglang = WireError.parse(WireFixtures.read("sglang/error-400.json"));
		WireError validation = WireError.parse(WireFixtures.read("sglang/error-400-validation.json"));

		assertThat(legacy.shape()).isEqualTo(WireError.Shape.FLAT);
		assertThat(legacy.code()).hasValue(400);
		assertThat(sglang.shape()).isEqualTo(WireError.Shape.FLAT);
		assertThat(sglang.type()).contains("BadRequestError");
		assertThat(validation.type()).as("422 remapped to 400").contains("Bad Request");
		assertThat(validation.code()).hasValue(400);
	}

	@Test
	@DisplayName("in-stream error frames: vLLM plain, SGLang with object:error inside")
	void streamFrames() {
		WireError vllm = WireFixtures.events("vllm/stream-error.sse").get(1).error();
		WireError sglang = WireFixtures.events("sglang/stream-error.sse").get(1).error();

		assertThat(vllm.shape()).isEqualTo(WireError.Shape.NESTED);
		assertThat(vllm.type()).contains("InternalServerError");
		assertThat(sglang.shape()).isEqualTo(WireError.Shape.NESTED);
		assertThat(sglang.type()).contains("INTERNAL_SERVER_ERROR");
		assertThat(sglang.message()).contains("Generation aborted.");
		assertThat(sglang.node().get("error").get("object").textValue()).isEqualTo("error");
	}

	@Test
	@DisplayName("a 401 from either engine is {\"error\":\"Unauthorized\"}")
	void unauthorized() {
		WireError error = WireError.parse("{\"error\":\"Unauthorized\"}");

		assertThat(error.shape()).isEqualTo(WireError.Shape.STRING);
		assertThat(error.message()).contains("Unauthorized");
		assertThat(error.code()).isEmpty();
		assertThat(error.type()).isEmpty();
	}

	@Test
	@DisplayName("a chat body is not an error")
	void notAnError() {
		String body = WireFixtures.read("sglang/chat-text.json");

		assertThat(WireError.of(WireJson.readObject(body))).isEmpty();
		assertThatThrownBy(() -> WireError.parse(body)).isInstanceOf(WireFormatException.class)
				.hasMessageStartingWith("not an error body: {\"id\":\"d2b8f4a6c0e14a3b9f7d5c1e8a6b2f40\"");
	}
}
