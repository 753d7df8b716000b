package dev.fakbattery.conformance.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.conformance.rules.WireRule;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.SseEvent;

import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules about what the gateway decides (W02 to W04, W06, W07, W13, W17, W23, W24). RULES.md gives each rule's
 * MUST sentence and what to check when it fails.
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public abstract class AdjudicationRules extends PassThroughRules {

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W02 allow kept unchanged")
	public void required_W02_allowKept(Dialect engine, String mode) {
		Exchange.Call proposed = truth(engine, mode, Scenario.ALLOW).calls().get(0);
		List<Exchange.Call> delivered = send(engine, mode, Scenario.ALLOW).answer().calls();
		require(delivered.stream().anyMatch(c -> WireChecks.sameCall(proposed, c)), WireRule.W02, engine, mode,
				"call " + proposed.name() + " " + proposed.id()
						+ " with arguments " + proposed.arguments() + " byte-identical",
				delivered);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W03 deny dropped")
	public void required_W03_denyDropped(Dialect engine, String mode) {
		for (Scenario scenario : List.of(Scenario.DENY_ONLY, Scenario.MIXED, Scenario.INTERLEAVED)) {
			List<String> deniedIds = truth(engine, mode, scenario).calls()
					.stream()
					.filter(c -> c.name().startsWith("deny_"))
					.map(Exchange.Call::id)
					.toList();
			List<Exchange.Call> delivered = send(engine, mode, scenario).answer().calls();
			List<Exchange.Call> leaked = delivered.stream()
					.filter(c -> deniedIds.contains(c.id()) || (c.name() != null && c.name().startsWith("deny_")))
					.toList();
			require(leaked.isEmpty(), WireRule.W03, engine, mode, "no denied call delivered (" + scenario.marker() + ")", leaked);
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W04 transform redacted")
	public void required_W04_transformRedacted(Dialect engine, String mode) {
		Exchange.Call proposed = truth(engine, mode, Scenario.MIXED).calls()
				.stream()
				.filter(c -> c.name().startsWith("transform_"))
				.findFirst()
				.orElseThrow();
		Exchange answer = send(engine, mode, Scenario.MIXED).answer();
		Optional<Exchange.Call> delivered = answer.calls().stream().filter(c -> proposed.id().equals(c.id())).findFirst();
		Optional<Object> arguments = delivered.map(WireChecks::arguments);
		require(arguments.equals(Optional.of(WireChecks.redacted())), WireRule.W04, engine, mode,
				"call " + proposed.id() + " with arguments {\"redacted\":true}", delivered);
		require(!answer.body.contains("rm -rf"), WireRule.W04, engine, mode, "no byte of the original arguments (rm -rf)",
				"them in the body");
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W06 parallel calls adjudicated independently, survivors renumbered densely")
	public void required_W06_parallelCalls(Dialect engine, String mode) {
		List<Exchange.Call> delivered = send(engine, mode, Scenario.MIXED).answer().calls();
		List<String> names = delivered.stream().map(Exchange.Call::name).toList();
		require(names.equals(List.of("allow_read", "transform_exec")), WireRule.W06, engine, mode, "calls [allow_read, transform_exec]",
				names);
		List<Integer> indexes = delivered.stream().map(Exchange.Call::index).toList();
		require(dense(indexes, stream(mode)), WireRule.W06, engine, mode, "surviving calls indexed [0, 1]", indexes);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W07 finish_reason consistent with surviving calls")
	public void required_W07_finishReason(Dialect engine, String mode) {
		Optional<String> mixed = send(engine, mode, Scenario.MIXED).answer().finishReason();
		require(mixed.equals(Optional.of("tool_calls")), WireRule.W07, engine, mode, "tool_calls when a call survives", mixed);
		Optional<String> denied = send(engine, mode, Scenario.DENY_ONLY).answer().finishReason();
		require(denied.equals(Optional.of("stop")), WireRule.W07, engine, mode, "stop when every call was denied", denied);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W13 no byte of a denied call, in any mode")
	public void required_W13_noDeniedBytes(Dialect engine, String mode) {
		for (Scenario scenario : List.of(Scenario.MIXED, Scenario.INTERLEAVED)) {
			Exchange.Call denied = truth(engine, mode, scenario).calls()
					.stream()
					.filter(c -> c.name().startsWith("deny_"))
					.findFirst()
					.orElseThrow();
			List<String> traces = new ArrayList<>(List.of(denied.id(), denied.name()));
			if (scenario == Scenario.INTERLEAVED) {
				traces.addAll(List.of("KITDENYTOKEN4e1f", "/etc/kit-deny-4e1f"));
			}
			List<String> found = WireChecks.leaks(send(engine, mode, scenario).answer(), traces);
			require(found.isEmpty(), WireRule.W13, engine, mode,
					"none of " + traces + " anywhere in the " + (stream(mode) ? "stream" : "body")
							+ " (" + scenario.marker() + ")",
					found);
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W17 adjudication record, asked for: one entry per proposed call")
	public void optional_W17_adjudicationRecord(Dialect engine, String mode) {
		onlyWhenRecordDeclared(engine, WireRule.W17);
		Exchange answer = sendAskingForRecord(engine, mode, Scenario.MIXED).answer();
		JsonNode record = stream(mode)
				? answer.events.stream()
						.map(Exchange.Timed::event)
						.filter(e -> e.event().filter("adjudication"::equals).isPresent())
						.findFirst()
						.flatMap(SseEvent::json)
						.map(JsonNode.class::cast)
						.orElse(Json.MAPPER.missingNode())
				: answer.json().map(j -> j.path("adjudication")).orElse(Json.MAPPER.missingNode());
		Map<String, String> actions = new LinkedHashMap<>();
		record.path("calls").forEach(c -> actions.put(c.path("tool").asText(), c.path("action").asText()));
		require(actions.equals(Map.of("allow_read", "ALLOW", "deny_write", "DENY", "transform_exec", "TRANSFORM")), WireRule.W17, engine,
				mode,
				"{allow_read=ALLOW, deny_write=DENY, transform_exec=TRANSFORM}", record.isMissingNode() ? "no record" : actions);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W23 exactly the surviving calls: none extra, none twice, dense indexes, a well-formed stream")
	public void required_W23_exactCalls(Dialect engine, String mode) {
		for (Scenario scenario : Scenario.TOOL_CALLS) {
			List<String> expected = truth(engine, mode, scenario).calls()
					.stream()
					.filter(AdjudicationRules::survives)
					.map(c -> c.name() + " " + c.id())
					.toList();
			Exchange answer = send(engine, mode, scenario).answer();
			List<String> observed = answer.calls().stream().map(c -> c.name() + " " + c.id()).toList();
			require(observed.equals(expected), WireRule.W23, engine, mode, "calls " + expected + " (" + scenario.marker() + ")", observed);
			List<Integer> indexes = answer.calls().stream().map(Exchange.Call::index).toList();
			require(dense(indexes, stream(mode)), WireRule.W23, engine, mode,
					"indexes " + IntStream.range(0, indexes.size()).boxed().toList()
							+ " (" + scenario.marker() + ")",
					indexes);
			require(answer.violations().isEmpty(), WireRule.W23, engine, mode,
					"tool-call deltas that assemble cleanly (" + scenario.marker() + ")",
					answer.violations());
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W24 arguments with Unicode, escapes, nested JSON and 64 KiB values kept byte for byte")
	public void required_W24_exoticArguments(Dialect engine, String mode) {
		Exchange.Call proposed = truth(engine, mode, Scenario.EXOTIC).calls().get(0);
		List<Exchange.Call> delivered = send(engine, mode, Scenario.EXOTIC).answer().calls();
		Optional<Exchange.Call> same = delivered.stream().filter(c -> proposed.id().equals(c.id())).findFirst();
		require(same.filter(c -> WireChecks.sameCall(proposed, c)).isPresent(), WireRule.W24, engine, mode,
				"call " + proposed.id() + " with its "
						+ proposed.arguments().length() + " characters of arguments byte-identical",
				same.map(c -> differenceIn(proposed.arguments(),
						c.arguments())).orElse("no such call in " + delivered.size() + " call(s)"));
	}

	static boolean survives(Exchange.Call call) {
		return call.name().startsWith("allow_") || call.name().startsWith("transform_");
	}

	/** Streams must number survivors 0..n-1; a whole body may also leave {@code index} out (vLLM does). */
	static boolean dense(List<Integer> indexes, boolean stream) {
		boolean numbered = indexes.equals(IntStream.range(0, indexes.size()).boxed().toList());
		return stream ? numbered : numbered || indexes.stream().allMatch(i -> i == null);
	}

	/** Where two argument strings first differ, with a little context. */
	static String differenceIn(String expected, String observed) {
		int at = 0;
		while (at < Math.min(expected.length(), observed.length()) && expected.charAt(at) == observed.charAt(at)) {
			at++;
		}
		if (at == expected.length() && at == observed.length()) {
			return "the arguments unchanged but the id or name changed";
		}
		return observed.length() + " characters, first difference at " + at + ": ["
				+ observed.substring(Math.max(0, at - 10), Math.min(observed.length(), at + 20)) + "] instead of ["
				+ expected.substring(Math.max(0, at - 10), Math.min(expected.length(), at + 20)) + "]";
	}
}
