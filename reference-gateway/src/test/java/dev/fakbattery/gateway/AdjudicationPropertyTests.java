package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonPointer;

import dev.fakbattery.gateway.policy.Action;
import dev.fakbattery.gateway.policy.Decision;
import dev.fakbattery.gateway.policy.Policy;
import dev.fakbattery.wire.AssembledToolCall;
import dev.fakbattery.wire.ChatChunk;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.SseReader;
import dev.fakbattery.wire.ToolCallAssembler;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Property-based tests of adjudication (QuickTheories, bounded tries, shrunk counterexamples): for random policies
 * and random tool-call streams, split at random boundaries, a denied call never leaves a byte (id, name, arguments),
 * a transformed call never leaves its original arguments, an allowed call leaves byte-identical, and survivors are
 * numbered 0..n-1. Once at the adjudicator (any policy), once through the whole gateway over HTTP (the kit policy,
 * the upstream writing the stream in random pieces). {@code -DQT_SEED=...} replays a failure.
 */
@DisplayName("adjudication properties: denied leaves no byte, transformed no original arguments, whatever the split")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdjudicationPropertyTests {

	private static final List<String> NAMES = List.of("tool_amber", "tool_beryl", "tool_coral", "tool_dune", "tool_ember");

	private static final List<String> KIT_NAMES = List.of("allow_amber", "deny_beryl", "transform_coral", "other_dune");

	private final Rig vllm = Rig.start("vllm");

	private final Rig sglang = Rig.start("sglang");

	@AfterAll
	void stop() {
		vllm.close();
		sglang.close();
	}

	@Test
	@DisplayName("at the adjudicator: random policies, random streams, random splits")
	void adjudicatorKeepsThePolicy() {
		qt().withExamples(400)
				.forAll(lists().of(integers().all()).ofSizeBetween(1, 5), lists().of(integers().between(0, 3)).ofSize(NAMES.size()),
						lists().of(integers().between(1, 40)).ofSizeBetween(1, 10), booleans().all())
				.checkAssert((plan, actions, splits, sglang) -> {
					Policy policy = policy(actions);
					Dialect dialect = sglang ? Dialect.SGLANG : Dialect.VLLM;
					List<ToolStreams.Call> calls = ToolStreams.calls(plan, NAMES);
					byte[] sse = ToolStreams.sse(dialect, calls, plan.get(0) % 2 == 0 ? "Let me look." : "")
							.getBytes(StandardCharsets.UTF_8);
					StreamAdjudicator adjudicator = new StreamAdjudicator(
							new CallAdjudicator(policy, new AdjudicationRecord(), new GatewayMetrics()));
					List<String> out = new ArrayList<>();
					try (SseReader reader = new SseReader(new SplitStream(sse, splits))) {
						for (var event = reader.next(); event.isPresent() && !event.get().isDone(); event = reader.next()) {
							out.addAll(adjudicator.onChunk(event.get()));
						}
					}
					catch (IOException e) {
						throw new UncheckedIOException(e);
					}
					requireKept(calls, policy, out, "policy " + actions + ", " + dialect + ", split " + splits);
				});
	}

	@Test
	@DisplayName("through the gateway: the kit policy, random streams written in random pieces")
	void gatewayKeepsThePolicy() {
		qt().withExamples(120)
				.forAll(lists().of(integers().all()).ofSizeBetween(1, 4), lists().of(integers().between(1, 60)).ofSizeBetween(1, 8),
						booleans().all())
				.checkAssert((plan, pieces, sglang) -> {
					Rig rig = sglang ? this.sglang : vllm;
					List<ToolStreams.Call> calls = ToolStreams.calls(plan, KIT_NAMES);
					byte[] sse = ToolStreams.sse(sglang ? Dialect.SGLANG : Dialect.VLLM, calls, "").getBytes(StandardCharsets.UTF_8);
					rig.upstream.chat((exchange, request) -> writeInPieces(UpstreamDouble.startStream(exchange), sse, pieces));
					GatewayClient.Answer answer = rig.chat(GatewayClient.request("m", true));
					assertThat(answer.status()).isEqualTo(200);
					List<String> out = answer.events()
							.stream()
							.filter(e -> e.event().isEmpty() && !e.isDone())
							.map(SseEvent::data)
							.toList();
					assertThat(answer.events().getLast().isDone()).isTrue();
					requireKept(calls, dev.fakbattery.gateway.policy.PolicyLoader.kitConvention(), out, "pieces " + pieces);
				});
	}

	private static void requireKept(List<ToolStreams.Call> calls, Policy policy, List<String> out, String context) {
		String text = String.join("\n", out);
		List<AssembledToolCall> delivered = delivered(out);
		for (ToolStreams.Call call : calls) {
			Action action = policy.decide(call.name()).action();
			switch (action) {
				case DENY -> {
					assertThat(text).as("denied %s (%s)", call.id(), context)
							.doesNotContain(call.id())
							.doesNotContain(call.secret())
							.doesNotContain("\"" + call.name() + "\"");
				}
				case TRANSFORM -> {
					assertThat(text).as("transformed %s (%s)", call.id(), context).doesNotContain(call.secret());
					assertThat(delivered).as("transformed %s delivered (%s)", call.id(), context)
							.anyMatch(c -> c.id().equals(java.util.Optional.of(call.id())));
				}
				case ALLOW -> assertThat(delivered).as("allowed %s byte-identical (%s)", call.id(), context)
						.anyMatch(c -> c.id().equals(java.util.Optional.of(call.id())) && c.arguments().equals(call.arguments()));
			}
		}
		// in order of first appearance: -DQT_SEED=27509700416051 once gave [0, 2, 1, 3], 31493184652542 gave [1, 0, 2]
		assertThat(delivered.stream().map(AssembledToolCall::index).toList()).as("survivors numbered 0..n-1 in order (%s)", context)
				.isEqualTo(java.util.stream.IntStream.range(0, delivered.size()).boxed().toList());
	}

	private static List<AssembledToolCall> delivered(List<String> payloads) {
		ToolCallAssembler assembler = new ToolCallAssembler();
		for (String payload : payloads) {
			assembler.accept(ChatChunk.parse(payload));
		}
		return assembler.calls();
	}

	/** A policy with one rule per name: 0 allow, 1 deny, 2 transform to {"redacted":true}, 3 redact /secret. */
	static Policy policy(List<Integer> actions) {
		Policy.Builder builder = Policy.builder();
		for (int i = 0; i < actions.size() - 1; i++) {
			String name = NAMES.get(i);
			switch (actions.get(i)) {
				case 0 -> builder.allow(name);
				case 1 -> builder.deny(name, "POLICY_BLOCK");
				case 2 -> builder.rule(name,
						new Decision(Action.TRANSFORM, name, "t", Json.MAPPER.createObjectNode().put("redacted", true), List.of()));
				default -> builder.rule(name, new Decision(Action.TRANSFORM, name, "t", null, List.of(JsonPointer.compile("/secret"))));
			}
		}
		if (actions.getLast() == 0) {
			builder.fallback(new Decision(Action.ALLOW, "<default>", "allowed by default", null, List.of()));
		}
		return builder.build();
	}

	private static void writeInPieces(OutputStream out, byte[] bytes, List<Integer> pieces) throws IOException {
		int turn = 0;
		for (int at = 0; at < bytes.length;) {
			int n = Math.min(pieces.get(turn++ % pieces.size()), bytes.length - at);
			out.write(bytes, at, n);
			out.flush();
			at += n;
		}
	}

	/** Reads of the given sizes in turn. */
	private static final class SplitStream extends ByteArrayInputStream {

		private final List<Integer> sizes;

		private int turn;

		SplitStream(byte[] bytes, List<Integer> sizes) {
			super(bytes);
			this.sizes = sizes;
		}

		@Override
		public synchronized int read(byte[] b, int off, int len) {
			return super.read(b, off, Math.min(len, sizes.get(turn++ % sizes.size())));
		}
	}
}
