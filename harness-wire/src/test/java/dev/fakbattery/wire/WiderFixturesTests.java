package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The streams of {@code fixtures/wire/wider} (servers the kit has no dialect for, reconstructed from their documented or
 * observed wire): each reads as one call per {@code index}, whatever its continuation deltas carry.
 */
@DisplayName("wider-world fixtures: one call per index")
class WiderFixturesTests {

	private static final String ARGS = "{\"city\": \"Paris\", \"unit\": \"celsius\"}";

	/** The calls each stream must assemble to: id, name and arguments, by index. */
	private static final Map<String, List<String>> CALLS = Map.of(
			"dashscope-empty-id", List.of("call_0f1e2d3c4b5a69788796a5b4 get_weather " + ARGS),
			"null-and-empty-fields", List.of("call_1f7c2a9e4b6d48e0a3c5b7d9 get_weather {\"city\": \"Paris\", \"unit\": \"celsius\"}",
					"call_8e3b5d7f9a1c4e6b8d0f2a4c get_weather {\"city\": \"Tokyo\", \"unit\": \"celsius\"}"),
			"vllm-finish-repeats-arguments", List.of("chatcmpl-tool-9a3f61d2c8e04b7a get_weather " + ARGS + ARGS),
			"mistral-whole-call", List.of("D681PevKs get_weather " + ARGS),
			"groq-usage-twice", List.of("call_7hx2kq9m4ptd get_weather {\"city\":\"Paris\",\"unit\":\"celsius\"}"),
			"llamacpp-verbose", List.of("QBv0eAMsEkObW3wPNrkE42XMAzLk2l3v get_weather {\"city\":\"Paris\",\"unit\":\"c\"}"));

	static Stream<Arguments> streams() {
		return CALLS.keySet().stream().sorted().map(Arguments::of);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("streams")
	@DisplayName("a wider-world stream assembles to one complete, named call per index, as its provenance says")
	void oneCallPerIndex(String name) {
		ToolCallAssembler assembler = ToolCallAssemblerTests.assemble(WireFixtures.chunks("wider/" + name + ".sse"));

		assertThat(assembler.calls()).extracting(call -> call.id().orElse("<none>") + " " + call.name().orElse("<none>") + " "
				+ call.arguments()).containsExactlyElementsOf(CALLS.get(name));
		assertThat(assembler.calls()).extracting(AssembledToolCall::index)
				.containsExactlyElementsOf(
						Stream.iterate(0, i -> i + 1).limit(CALLS.get(name).size()).toList());
		assertThat(assembler.openCalls()).isEmpty();
		assertThat(assembler.finishReason(0)).contains("tool_calls");
		assertThat(assembler.violations()).as("only the repeat is named")
				.hasSize(name.equals("vllm-finish-repeats-arguments") ? 1 : 0);
	}
}
