package dev.fakbattery.conformance.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.conformance.rules.CapturedWireRule;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.WireJson;

import org.apiguardian.api.API;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wire rules on captured engine answers ({@code wire.captures}): each capture with tool calls is replayed as an
 * {@code allow}, a {@code deny} and a {@code transform} variant (every tool renamed with that policy prefix), one
 * without as sent, and the rules that apply judge the gateway's answer against the capture. Rule ids are the kit's;
 * RULES.md says which apply to captures.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
@DisplayName("wire conformance rules on captured wires")
public abstract class CapturedWireVerification extends WireConformanceKit {

	static final String CAPTURES = "captured";
	static final String NAME = "{0} {1}";

	private static final String[] ALL = { "allow", "deny", "transform", "as-sent" };

	private List<Capture> captures;

	/** The captures to replay: every answer under {@code wire.captures}. */
	List<Capture> loadCaptures() {
		return KitRun.capturesDir(config()).map(Capture::load).orElseThrow();
	}

	/** The dialects the gateway under test can be put in front of: every one by default. */
	protected List<Dialect> served() {
		return List.of(Dialect.values());
	}

	/** The dialects this run replays: those of the captures, among those {@link #served()}. */
	@Override
	protected final List<Dialect> engines() {
		List<Dialect> captured = loaded().stream().map(Capture::engine).distinct().toList();
		return served().stream().filter(captured::contains).toList();
	}

	private List<Capture> loaded() {
		if (captures == null) {
			Assumptions.assumeTrue(KitRun.capturesDir(config()).isPresent(),
					"Not configured: no captured wires to replay (set -D" + HarnessConstants.WIRE_CAPTURES + "=DIR)");
			captures = loadCaptures();
		}
		return captures;
	}

	@Override
	void stubMore(KitUpstream upstream) {
		for (int i = 0; i < loaded().size(); i++) {
			Capture capture = captures.get(i);
			if (capture.engine() == upstream.engine()) {
				for (String variant : capture.variants()) {
					upstream.stubCapture(capture.marker(i, variant), capture.text(true, variant).orElse(null), capture.status(true),
							capture.text(false, variant).orElse(null), capture.status(false));
				}
			}
		}
	}

	Stream<Arguments> captured() {
		return IntStream.range(0, captures.size())
				.boxed()
				.flatMap(i -> Stream.of("non-stream", "stream")
						.map(mode -> Arguments.of(Named.of(captures.get(i).id(), i), Named.of(mode, mode))));
	}

	/** The captures replayed, for the artifact. */
	List<Capture> captures() {
		return captures == null ? List.of() : List.copyOf(captures);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(CAPTURES)
	@DisplayName("W02 allow kept unchanged (captured)")
	public void required_W02_allowKept(int number, String mode, TestReporter reporter) {
		for (Replay replay : replays(number, mode, "allow")) {
			if (!replay.truth().violations().isEmpty()) {
				// the capture itself breaks the merge rules (arguments sent twice): judged as the SDKs read it, and said so
				reporter.publishEntry(CapturedWireRule.W02.id() + " " + replay.what() + ": the engine's own stream",
						String.join("; ", replay.truth().violations()));
			}
			List<String> expected = replay.truth().calls().stream().map(WireChecks::call).toList();
			List<String> observed = replay.answer().calls().stream().map(WireChecks::call).toList();
			require(observed.equals(expected), CapturedWireRule.W02, replay.engine(), mode,
					"calls " + expected + " byte-identical (" + replay.what() + ")", observed);
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(CAPTURES)
	@DisplayName("W13 no byte of a denied call (captured)")
	public void required_W13_noDeniedBytes(int number, String mode) {
		for (Replay replay : replays(number, mode, "deny")) {
			List<String> traces = new ArrayList<>();
			replay.truth().calls().forEach(c -> {
				// a capture's call may lack an id or a name (a server that sends none): what it has is traced
				Stream.of(c.id(), c.name()).filter(t -> t != null && !t.isEmpty()).forEach(traces::add);
				if (c.arguments().length() >= 12) {
					traces.add(c.arguments());
				}
			});
			List<String> found = WireChecks.leaks(replay.answer(), traces);
			require(found.isEmpty() && replay.answer().calls().isEmpty(), CapturedWireRule.W13, replay.engine(), mode,
					"no call and none of " + traces + " ("
							+ replay.what() + ")",
					found.isEmpty() ? replay.answer().calls() : found);
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(CAPTURES)
	@DisplayName("W04 transform redacted (captured)")
	public void required_W04_transformRedacted(int number, String mode) {
		for (Replay replay : replays(number, mode, "transform")) {
			List<String> expected = replay.truth()
					.calls()
					.stream()
					.map(c -> c.name() + " " + c.id() + " " + WireChecks.redacted())
					.toList();
			List<String> observed = replay.answer()
					.calls()
					.stream()
					.map(c -> c.name() + " " + c.id() + " " + WireChecks.arguments(c))
					.toList();
			boolean leaked = replay.truth()
					.calls()
					.stream()
					.anyMatch(c -> c.arguments().length() >= 12 && !WireChecks.leaks(replay.answer(), List.of(c.arguments())).isEmpty());
			require(observed.equals(expected) && !leaked, CapturedWireRule.W04, replay.engine(), mode,
					"calls " + expected + " and no original arguments ("
							+ replay.what() + ")",
					leaked ? "the original arguments in the answer" : observed);
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(CAPTURES)
	@DisplayName("W05 content kept (captured)")
	public void required_W05_contentKept(int number, String mode) {
		for (Replay replay : replays(number, mode, ALL)) {
			require(replay.answer().content().equals(replay.truth().content()), CapturedWireRule.W05, replay.engine(), mode, "content ["
					+ replay.truth().content() + "] (" + replay.what() + ")", "[" + replay.answer().content() + "]");
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(CAPTURES)
	@DisplayName("W07 finish_reason consistent with surviving calls (captured)")
	public void required_W07_finishReason(int number, String mode) {
		for (Replay replay : replays(number, mode, ALL)) {
			Optional<String> expected = replay.truth()
					.finishReason()
					.map(f -> replay.variant().equals("deny") && f.equals("tool_calls") ? "stop" : f);
			require(replay.answer().finishReason().equals(expected), CapturedWireRule.W07, replay.engine(), mode,
					"finish_reason " + expected.orElse("none")
							+ " (" + replay.what() + ")",
					replay.answer().finishReason().orElse("none"));
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(CAPTURES)
	@DisplayName("W08 usage kept (captured)")
	public void required_W08_usageKept(int number, String mode) {
		for (Replay replay : replays(number, mode, ALL)) {
			require(replay.answer().usage().equals(replay.truth().usage()), CapturedWireRule.W08, replay.engine(), mode, "usage "
					+ replay.truth().usage().map(Object::toString).orElse("absent") + " (" + replay.what() + ")",
					replay.answer().usage().map(Object::toString).orElse("no usage"));
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(CAPTURES)
	@DisplayName("W09 the engine's error status and body pass through (captured)")
	public void required_W09_errorPassesThrough(int number, String mode) {
		Capture capture = captures.get(number);
		List<Replay> replays = replays(number, mode, true, ALL);
		Assumptions.assumeTrue(capture.isError(stream(mode)),
				() -> "Not applicable: " + capture.id() + " is the engine's answer (HTTP 200) in "
						+ mode + " mode, not an error");
		for (Replay replay : replays) {
			Optional<JsonNode> expected = WireJson.read(replay.truth().body);
			require(replay.answer().status == replay.truth().status && WireJson.read(replay.answer().body).equals(expected),
					CapturedWireRule.W09, replay.engine(),
					mode, "status " + replay.truth().status + " and body " + replay.truth().body + " (" + replay.what() + ")", "status "
							+ replay.answer().status + " body " + replay.answer().body);
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(CAPTURES)
	@DisplayName("W19 the official OpenAI SDK reads every answer as the kit does (captured)")
	public void required_W19_officialSdk(int number, String mode, TestReporter reporter) {
		for (Replay replay : replays(number, mode, true, ALL)) {
			WireChecks.SdkJudgement judged = WireChecks.sdk(replay.answer(), sdk(replay.engine()).read(replay.request()),
					() -> rawSdk(replay.engine()).read(replay.request()), replay.what());
			require(judged.passed(), CapturedWireRule.W19, replay.engine(), mode, judged.expected(), judged.observed());
			if (!judged.judged()) {
				reporter.publishEntry(CapturedWireRule.W19.id() + " not judged: " + SdkReader.SDK + " cannot read the engine's own answer",
						judged.observed());
			}
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(CAPTURES)
	@DisplayName("W20 every data event is a chunk or an error frame, [DONE] once and last (captured)")
	public void required_W20_framing(int number, String mode) {
		onlyWhenStreaming(mode, CapturedWireRule.W20, "concerns SSE framing");
		for (Replay replay : replays(number, mode, ALL)) {
			List<String> framing = WireChecks.framing(replay.answer());
			require(framing.isEmpty(), CapturedWireRule.W20, replay.engine(), mode,
					"chunks or error frames, then [DONE] once, last (" + replay.what() + ")", framing);
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(CAPTURES)
	@DisplayName("W22 per-chunk usage kept (captured)")
	public void required_W22_continuousUsage(int number, String mode) {
		onlyWhenStreaming(mode, CapturedWireRule.W22, "concerns per-chunk usage of a stream");
		Capture capture = captures.get(number);
		List<Replay> replays = replays(number, mode, ALL);
		Assumptions.assumeTrue(WireChecks.usageOnEveryChunk(capture.truth(true, "as-sent")),
				() -> "Not applicable: " + capture.id() + " has no usage on every chunk (continuous_usage_stats)");
		for (Replay replay : replays) {
			List<String> usage = WireChecks.chunkUsage(replay.truth(), replay.answer());
			require(usage.isEmpty(), CapturedWireRule.W22, replay.engine(), mode,
					"every chunk with one of the capture's usage objects (" + replay.what() + ")",
					usage.size() + " chunk(s) without, first " + usage.stream().findFirst().orElse(""));
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(CAPTURES)
	@DisplayName("W21 allowed answers pass unchanged (captured)")
	public void required_W21_unchanged(int number, String mode) {
		for (Replay replay : replays(number, mode, "allow", "as-sent")) {
			Optional<String> difference = WireChecks.unchanged(replay.truth(), replay.answer());
			require(difference.isEmpty(), CapturedWireRule.W21, replay.engine(), mode, "the captured " + (stream(mode) ? "chunks" : "body")
					+ " unchanged (" + replay.what() + ")", difference.orElse(""));
		}
	}

	/** One variant of a capture replayed through the gateway: the capture as the truth, the gateway's answer. */
	record Replay(Dialect engine, String variant, String what, ObjectNode request, Exchange truth, Exchange answer) {
	}

	/** The replays of the chat answer of capture {@code number}; aborted with the reason when it is an error answer (see W09). */
	private List<Replay> replays(int number, String mode, String... variants) {
		return replays(number, mode, false, variants);
	}

	/**
	 * The replays of the variants of capture {@code number} among {@code variants}, its error answer too when
	 * {@code errors}; aborted with the reason when none applies.
	 */
	private List<Replay> replays(int number, String mode, boolean errors, String... variants) {
		Capture capture = captures.get(number);
		boolean stream = stream(mode);
		Assumptions.assumeTrue(engines().contains(capture.engine()), () -> "Not applicable: the capture is " + capture.engine()
				+ " and this run's gateway serves " + served());
		Assumptions.assumeTrue((stream ? capture.sse() : capture.json()).isPresent(),
				() -> "Not applicable: no " + mode + " capture of " + capture.id());
		Assumptions.assumeTrue(errors || !capture.isError(stream),
				() -> "Not applicable: " + capture.id() + " is the engine's error answer (HTTP "
						+ capture.status(stream) + ") in " + mode + " mode; " + CapturedWireRule.W09.id() + " and "
						+ CapturedWireRule.W19.id() + " judge it");
		Assumptions.assumeTrue(!stream || capture.completeStream(), () -> "Not applicable: the captured stream " + capture.id()
				+ " is incomplete (it does not end with data: [DONE]), so there is no whole answer to compare");
		List<Replay> replays = new ArrayList<>();
		for (String variant : capture.variants()) {
			if (List.of(variants).contains(variant)) {
				String marker = capture.marker(number, variant);
				Sent sent = sendCaptured(capture.engine(), mode, marker, capture.tools(variant));
				Exchange truth = capture.truth(stream, variant);
				replays.add(new Replay(capture.engine(), variant, capture.id() + " " + variant, request(marker, sent.nonce(), stream,
						capture.tools(variant)), truth, sent.answer()));
			}
		}
		Assumptions.assumeFalse(replays.isEmpty(),
				() -> "Not applicable: " + capture.id() + " has " + (capture.tools().isEmpty()
						? "no tool call"
						: "tool calls") + ", the rule judges variants " + List.of(variants));
		return replays;
	}

}
