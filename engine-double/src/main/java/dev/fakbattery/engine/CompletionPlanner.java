package dev.fakbattery.engine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Decides what the double generates for a request: scripted tool calls when tools may be used, otherwise seeded
 * text of {@code max_tokens} tokens (finish {@code length}) or of the configured default length plus an EOS token
 * (finish {@code stop}).
 *
 * @since 0.1
 */
final class CompletionPlanner {

	private final long seed;

	private final int defaultTokens;

	CompletionPlanner(long seed, int defaultTokens) {
		this.seed = seed;
		this.defaultTokens = defaultTokens;
	}

	/** The request's own generator: same double seed, request seed and body give the same stream. */
	SplittableRandom random(EngineRequest request) {
		long requestSeed = request.seed() == null ? 0 : request.seed();
		return new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ requestSeed * 0xC2B2AE3D27D4EB4FL ^ fnv(request));
	}

	Completion plan(EngineRequest request, Wire wire, SplittableRandom random) {
		if (request.toolChoice().callsTools()) {
			java.util.Optional<List<ToolScript.Directive>> round = ToolScript.round(request);
			if (round.isPresent()) {
				return tools(request, wire, round.get());
			}
		}
		boolean limited = request.maxTokens() != null;
		int contentTokens = limited ? request.maxTokens() : defaultTokens;
		List<String> pieces = Vocabulary.pieces(random, contentTokens, !limited);
		List<Step> steps = new ArrayList<>(contentTokens + 1);
		pieces.forEach(piece -> steps.add(new Step.Text(piece)));
		if (!limited) {
			steps.add(new Step.Eos());
		}
		return new Completion(List.copyOf(steps), limited ? Completion.Finish.LENGTH : Completion.Finish.STOP,
				List.of(), String.join("", pieces), false);
	}

	private Completion tools(EngineRequest request, Wire wire, List<ToolScript.Directive> directives) {
		List<ToolCall> calls = new ArrayList<>();
		List<Step> steps = new ArrayList<>();
		for (ToolScript.Directive directive : directives) {
			int index = calls.size();
			ToolCall call = wire.toolCall(directive);
			calls.add(call);
			steps.add(new Step.ToolName(index));
			call.fragments().forEach(fragment -> steps.add(new Step.ToolArgs(index, fragment)));
		}
		steps.add(new Step.Eos());
		return new Completion(List.copyOf(steps), Completion.Finish.TOOL_CALLS, List.copyOf(calls), "",
				request.toolChoice().mode() == ToolChoice.Mode.NAMED);
	}

	/** FNV-1a over the messages, so the text depends on the conversation but not on ids or timing. */
	private static long fnv(EngineRequest request) {
		long hash = 0xcbf29ce484222325L;
		for (byte b : request.wire().node().path("messages").toString().getBytes(StandardCharsets.UTF_8)) {
			hash ^= b;
			hash *= 0x100000001b3L;
		}
		return hash;
	}
}
