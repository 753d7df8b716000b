package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import dev.fakbattery.gateway.GatewayClient.Answer;
import dev.fakbattery.wire.WireFixtures;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("upstream error statuses pass through unchanged")
class ErrorPassThroughTests {

	static Stream<Arguments> errors() {
		Stream<Arguments> shapes = Stream.of(
				Arguments.of("vllm", "vllm/error-400.json", 400),
				Arguments.of("vllm", "vllm/error-400-legacy.json", 400),
				Arguments.of("vllm", "vllm/error-404-model.json", 404),
				Arguments.of("sglang", "sglang/error-400.json", 400),
				Arguments.of("sglang", "sglang/error-400-validation.json", 400),
				Arguments.of("sglang", "401 {\"error\":\"Unauthorized\"}", 401));
		return shapes.flatMap(
				shape -> Stream.of(true, false).map(stream -> Arguments.of(shape.get()[0], shape.get()[1], shape.get()[2], stream)));
	}

	@ParameterizedTest(name = "{0} {1} stream={3}")
	@MethodSource("errors")
	@DisplayName("status, body and content type as the engine sent them (nested, legacy flat, SGLang flat, string)")
	void passThrough(String engine, String fixture, int status, boolean stream) {
		byte[] body = fixture.startsWith("401 ") ? fixture.substring(4).getBytes(StandardCharsets.UTF_8) : WireFixtures.bytes(fixture);
		try (Rig rig = Rig.start(engine)) {
			rig.upstream.chat(UpstreamDouble.status(status, "application/json", body));
			Answer answer = rig.chat(GatewayClient.request("m", stream));

			assertThat(answer.status()).isEqualTo(status);
			assertThat(answer.body()).isEqualTo(new String(body, StandardCharsets.UTF_8));
			assertThat(answer.contentType()).isEqualTo("application/json");
			assertThat(rig.gateway.metrics().upstreamErrors()).isEqualTo(1);
		}
	}
}
