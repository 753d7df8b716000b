package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fixtures themselves: SSE framing, argument fragments that concatenate to JSON, and the kit's promise
 * (fixtures/wire/kit/PROVENANCE.md): policy tool names and arguments in each engine's unchanged wire shape.
 */
@DisplayName("wire fixtures")
class KitFixturesTests {

	private static final Pattern FRAME = Pattern.compile("data: [^\\r\\n]+\\n\\n");

	private static final Map<String, String> ARGUMENTS = Map.of(
			"allow_read", "{\"path\": \"/etc/hosts\"}",
			"deny_write", "{\"path\": \"/etc/passwd\", \"data\": \"x\"}",
			"transform_exec", "{\"cmd\": \"rm -rf /\"}");

	private static final Map<String, List<String>> KIT = Map.of(
			"tool-call-allow", List.of("allow_read"),
			"tool-call-mixed", List.of("allow_read", "deny_write", "transform_exec"),
			"tool-call-deny-only", List.of("deny_write"));

	private static final Map<String, String> DERIVED_FROM = Map.of(
			"tool-call-allow", "chat-tool-call",
			"tool-call-mixed", "chat-tool-call-parallel",
			"tool-call-deny-only", "chat-tool-call");

	static Stream<String> sseFixtures() {
		return WireFixtures.all("sse").stream();
	}

	static Stream<String> completeSseFixtures() {
		return sseFixtures().filter(name -> !name.contains("/captured/"));
	}

	static Stream<Arguments> kitFiles() {
		return Stream.of("vllm", "sglang").flatMap(engine -> KIT.keySet().stream().sorted().map(kit -> Arguments.of(engine, kit)));
	}

	/** Whether the assembler named this call's arguments as sent again whole (fixtures/wire/wider). */
	private static boolean repeatedWhole(ToolCallAssembler assembler, AssembledToolCall call) {
		String prefix = "choice " + call.choiceIndex() + " index " + call.index() + ": arguments sent again whole";
		return assembler.violations().stream().anyMatch(violation -> violation.startsWith(prefix));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("sseFixtures")
	@DisplayName("every stream's argument fragments concatenate to valid JSON (but the last call of a stream max_tokens cut, and"
			+ " arguments a server sent twice)")
	void fragmentsConcatenateToJson(String fixture) {
		List<ChatChunk> chunks = WireFixtures.chunks(fixture);
		long toolDeltas = chunks.stream().flatMap(chunk -> chunk.choices().stream()).mapToLong(choice -> choice.toolCalls().size()).sum();
		boolean cut = chunks.stream()
				.flatMap(chunk -> chunk.choices().stream())
				.anyMatch(choice -> choice.finishReason().equals(Optional.of("length")));

		ToolCallAssembler assembler = ToolCallAssemblerTests.assemble(chunks);

		if (toolDeltas == 0) {
			assertThat(assembler.calls()).as("a stream without tool deltas has no calls").isEmpty();
		}
		else {
			List<AssembledToolCall> calls = assembler.calls();
			assertThat(cut ? calls.subList(0, calls.size() - 1) : calls).isNotEmpty().allSatisfy(call -> {
				if (repeatedWhole(assembler, call)) {
					assertThat(call.argumentsValidJson()).as("arguments sent twice, read appended: " + call).isFalse();
					return;
				}
				assertThat(call.argumentsValidJson()).as(call.toString()).isTrue();
				assertThat(call.argumentsJson()).map(JsonNode::isObject).contains(true);
			});
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("completeSseFixtures")
	@DisplayName("every complete stream is data: <json>\\n\\n frames ending in data: [DONE]\\n\\n")
	void framing(String fixture) {
		String raw = WireFixtures.read(fixture);

		assertThat(raw).endsWith("\n\ndata: [DONE]\n\n").doesNotContain("\r");
		assertThat(FRAME.matcher(raw).replaceAll("")).as("bytes outside data frames").isEmpty();
	}

	@ParameterizedTest(name = "{0}/{1}")
	@MethodSource("kitFiles")
	@DisplayName("a kit body has the policy calls with json.dumps arguments, in its engine's shape")
	void kitBody(String engine, String kit) {
		ChatResponse body = ChatResponse.parse(WireFixtures.read("kit/" + engine + "/" + kit + ".json"));
		ResponseChoice choice = body.choices().get(0);
		List<ToolCall> calls = choice.message().toolCalls();

		assertThat(calls).extracting(call -> call.name().orElseThrow()).containsExactlyElementsOf(KIT.get(kit));
		assertThat(calls).allSatisfy(call -> assertThat(call.arguments()).contains(ARGUMENTS.get(call.name().orElseThrow())));
		assertThat(calls).extracting(call -> call.id().orElseThrow()).doesNotHaveDuplicates();
		assertThat(calls).extracting(call -> call.index().isPresent()).containsOnly(engine.equals("sglang"));
		assertThat(choice.finishReason()).contains("tool_calls");
		assertThat(body.usage()).isPresent();
		String expectedContent = kit.equals("tool-call-mixed") ? "I'll check." : engine.equals("sglang") ? "" : null;
		assertThat(choice.message().content().orElse(null)).isEqualTo(expectedContent);
	}

	@ParameterizedTest(name = "{0}/{1}")
	@MethodSource("kitFiles")
	@DisplayName("a kit stream assembles to the same calls, with prose first and a usage chunk before [DONE]")
	void kitStream(String engine, String kit) {
		String fixture = "kit/" + engine + "/" + kit + ".sse";
		List<SseEvent> events = WireFixtures.events(fixture);
		List<ChatChunk> chunks = WireFixtures.chunks(fixture);
		ToolCallAssembler assembler = ToolCallAssemblerTests.assemble(chunks);

		assertThat(assembler.calls()).extracting(call -> call.name().orElseThrow()).containsExactlyElementsOf(KIT.get(kit));
		assertThat(assembler.calls()).allSatisfy(call -> {
			assertThat(call.arguments()).isEqualTo(ARGUMENTS.get(call.name().orElseThrow()));
			assertThat(call.index()).isEqualTo(KIT.get(kit).indexOf(call.name().orElseThrow()));
		});
		assertThat(assembler.finishReason(0)).contains("tool_calls");
		assertThat(events.get(events.size() - 1).isDone()).isTrue();
		assertThat(events.get(events.size() - 2).chunk().isUsageOnly()).isTrue();
		String prose = chunks.stream()
				.flatMap(chunk -> chunk.choices().stream())
				.map(choice -> choice.delta().content().orElse(""))
				.collect(Collectors.joining());
		assertThat(prose).isEqualTo(kit.equals("tool-call-mixed") ? "I'll check." : "");
	}

	@ParameterizedTest(name = "{0}/{1}")
	@MethodSource("kitFiles")
	@DisplayName("a kit body differs from its original only in content and tool_calls")
	void kitBodyIsDerived(String engine, String kit) {
		ObjectNode derived = WireJson.readObject(WireFixtures.read("kit/" + engine + "/" + kit + ".json"));
		ObjectNode original = WireJson.readObject(WireFixtures.read(engine + "/" + DERIVED_FROM.get(kit) + ".json"));

		assertThat(withoutCallsAndContent(derived)).isEqualTo(withoutCallsAndContent(original));
		assertThat(WireRoundTripTests.keyPaths(withoutCallsAndContent(derived)))
				.containsExactlyElementsOf(WireRoundTripTests.keyPaths(withoutCallsAndContent(original)));
		assertThat(fieldNames(derived.get("choices").get(0).get("message")))
				.containsExactlyElementsOf(fieldNames(original.get("choices").get(0).get("message")));
	}

	private static List<String> fieldNames(JsonNode node) {
		return node.properties().stream().map(Map.Entry::getKey).toList();
	}

	@ParameterizedTest(name = "{0}/{1}")
	@MethodSource("kitFiles")
	@DisplayName("a kit stream keeps its original's role, finish and usage chunks")
	void kitStreamIsDerived(String engine, String kit) {
		List<ChatChunk> derived = WireFixtures.chunks("kit/" + engine + "/" + kit + ".sse");
		List<ChatChunk> original = WireFixtures.chunks(engine + "/" + DERIVED_FROM.get(kit) + ".sse");

		assertThat(derived.get(0)).isEqualTo(original.get(0));
		for (int fromEnd = 1; fromEnd <= 2; fromEnd++) {
			ObjectNode kept = derived.get(derived.size() - fromEnd).node().deepCopy();
			ObjectNode expected = original.get(original.size() - fromEnd).node().deepCopy();
			kept.remove("created");
			expected.remove("created");
			assertThat(kept).isEqualTo(expected);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("kit tool chunks have exactly the key paths of their original's tool chunks")
	void kitToolChunksKeepShape(String engine) {
		List<String> originalShapes = toolChunkShapes(engine + "/chat-tool-call-parallel.sse");
		List<String> kitShapes = toolChunkShapes("kit/" + engine + "/tool-call-mixed.sse");

		assertThat(kitShapes).containsExactlyInAnyOrderElementsOf(originalShapes);
	}

	@Test
	@DisplayName("vLLM kit prose chunks have the shape of vLLM's own content chunks")
	void vllmProseShape() {
		List<String> textShape = WireFixtures.chunks("vllm/chat-text.sse")
				.stream()
				.filter(chunk -> chunk.choices().get(0).delta().content().filter(text -> !text.isEmpty()).isPresent())
				.filter(chunk -> chunk.choices().get(0).finishReason().isEmpty())
				.map(chunk -> String.join(",", WireRoundTripTests.keyPaths(chunk.node())))
				.distinct()
				.toList();
		List<String> kitProse = WireFixtures.chunks("kit/vllm/tool-call-mixed.sse")
				.stream()
				.filter(chunk -> !chunk.choices().isEmpty() && chunk.choices().get(0).toolCalls().isEmpty())
				.filter(chunk -> chunk.choices().get(0).delta().content().filter(text -> !text.isEmpty()).isPresent())
				.map(chunk -> String.join(",", WireRoundTripTests.keyPaths(chunk.node())))
				.distinct()
				.toList();

		assertThat(kitProse).hasSize(1).isEqualTo(textShape);
	}

	private static ObjectNode withoutCallsAndContent(ObjectNode body) {
		ObjectNode copy = body.deepCopy();
		ObjectNode message = (ObjectNode) copy.get("choices").get(0).get("message");
		message.remove("tool_calls");
		message.remove("content");
		return copy;
	}

	/** The distinct key paths of chunks that carry tool deltas (first delta and argument deltas). */
	private static List<String> toolChunkShapes(String fixture) {
		return WireFixtures.chunks(fixture)
				.stream()
				.filter(chunk -> !chunk.choices().isEmpty() && !chunk.choices().get(0).toolCalls().isEmpty())
				.map(chunk -> String.join(",", WireRoundTripTests.keyPaths(chunk.node())))
				.distinct()
				.toList();
	}
}
