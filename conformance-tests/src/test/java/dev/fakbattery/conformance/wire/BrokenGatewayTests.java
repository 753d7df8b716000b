package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntUnaryOperator;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

import dev.fakbattery.api.gateway.GatewayLauncher;
import dev.fakbattery.api.gateway.RelayHop;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * The kit tested the Reactive Streams TCK way: deliberately broken gateways (the reference gateway
 * with one wrong hop) must fail exactly the rules they break, with the rule's message, and a
 * faithful hop must fail none.
 */
@Tag("wire")
@DisplayName("wire conformance kit self-test: broken gateways fail exactly their rules")
@Execution(ExecutionMode.CONCURRENT)
class BrokenGatewayTests {

	@Test
	@DisplayName("a faithful hop in front of the reference gateway fails no rule")
	void faithfulHopPassesAll() {
		Events tests = run(FaithfulHopTestCase.class);
		assertThat(failedRules(tests)).isEmpty();
		tests.assertStatistics(stats -> stats.succeeded(66).aborted(6).failed(0));
	}

	@Test
	@DisplayName("leaks denied calls only when streaming")
	void leaksDeniedWhenStreaming() {
		Events tests = run(LeaksDeniedWhenStreamingTestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(
				expand(List.of("W03", "W06", "W07", "W13", "W17"), List.of("stream")));
		assertThat(message(tests, "W13", "vllm stream"))
			.startsWith("W13 [vllm stream] on broken: leaks denied calls when streaming: expected none of [chatcmpl-tool-");
	}

	@Test
	@DisplayName("buffers the whole stream")
	void buffersWholeStream() {
		Events tests = run(BuffersWholeStreamTestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand(List.of("W14"), List.of("stream")));
		assertThat(message(tests, "W14", "sglang stream")).startsWith("W14 [sglang stream] on broken: buffers the whole stream: "
				+ "expected the first content delta at least 400 ms before the end of a stream the upstream paces over 800 ms, observed it ");
	}

	@Test
	@DisplayName("drops the usage chunk")
	void dropsUsageChunk() {
		Events tests = run(DropsUsageChunkTestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand(List.of("W08"), List.of("stream")));
		assertThat(message(tests, "W08", "vllm stream")).endsWith(", observed no usage");
	}

	@Test
	@DisplayName("corrupts argument fragments of allowed calls")
	void corruptsAllowedArguments() {
		Events tests = run(CorruptsArgumentsTestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand(List.of("W02"), List.of("non-stream", "stream")));
		assertThat(message(tests, "W02", "vllm stream")).startsWith("W02 [vllm stream] on broken: corrupts arguments: "
				+ "expected call allow_read chatcmpl-tool-");
	}

	@Test
	@DisplayName("turns upstream 5xx into 200")
	void turnsServerErrorsInto200() {
		Events tests = run(Turns5xxInto200TestCase.class);
		Set<String> expected = new TreeSet<>(expand(List.of("W09"), List.of("non-stream", "stream")));
		expected.addAll(expand(List.of("W11"), List.of("non-stream")));
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expected);
		assertThat(message(tests, "W09", "vllm non-stream")).endsWith("expected status 500 passed through, observed status 200");
	}

	@Test
	@DisplayName("rewrites the client's model alias")
	void rewritesModelAlias() {
		Events tests = run(RewritesModelTestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand(List.of("W01"), BOTH));
		assertThat(message(tests, "W01", "vllm stream")).endsWith("expected upstream model [kit-model-alias], observed [served-default]");
	}

	@Test
	@DisplayName("allows transformed calls unchanged")
	void skipsTransform() {
		Events tests = run(SkipsTransformTestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand(List.of("W04", "W06", "W17"), BOTH));
	}

	@Test
	@DisplayName("alters content beside tool calls")
	void altersContent() {
		Events tests = run(AltersContentTestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand(List.of("W05"), BOTH));
		assertThat(message(tests, "W05", "sglang non-stream")).endsWith("expected content [I'll check.], observed [I'll chexk.]");
	}

	@Test
	@DisplayName("drops in-stream error frames")
	void dropsErrorFrames() {
		Events tests = run(DropsErrorFramesTestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand(List.of("W10", "W11"), List.of("stream")));
	}

	@Test
	@DisplayName("forwards a poisoned tool result")
	void forwardsPoison() {
		Events tests = run(ForwardsPoisonTestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand(List.of("W12"), BOTH));
		assertThat(message(tests, "W12", "vllm non-stream"))
			.endsWith("expected the request forwarded upstream without the secret, observed the secret upstream");
	}

	@Test
	@DisplayName("drops X-Request-Id")
	void dropsRequestId() {
		Events tests = run(DropsRequestIdTestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand(List.of("W15"), BOTH));
	}

	@Test
	@DisplayName("answers client errors with 500")
	void clientErrorsAs500() {
		Events tests = run(ClientErrorsAs500TestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand(List.of("W09", "W16"), BOTH));
	}

	@Test
	@DisplayName("never resets the engine cache after a quarantine")
	void skipsCacheReset() {
		Events tests = run(SkipsCacheResetTestCase.class);
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand(List.of("W18"), BOTH));
		assertThat(message(tests, "W18", "sglang stream")).endsWith("expected a POST /flush_cache after the quarantine, observed 0 reset(s)");
	}

	private static Events run(Class<?> testCase) {
		return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testCase)).execute().testEvents();
	}

	/** Failed invocations as {@code W03 [vllm stream]}. */
	private static Set<String> failedRules(Events tests) {
		Set<String> failed = new TreeSet<>();
		tests.failed().stream().forEach(event -> failed.add(label(event)));
		return failed;
	}

	private static String message(Events tests, String rule, String target) {
		return tests.failed().stream().filter(e -> label(e).equals(rule + " [" + target + "]")).findFirst()
			.flatMap(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class))
			.flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable)
			.map(Throwable::getMessage).orElse("<" + rule + " [" + target + "] did not fail>");
	}

	private static String label(Event event) {
		TestDescriptor invocation = event.getTestDescriptor();
		String rule = invocation.getParent().map(TestDescriptor::getDisplayName).orElse("?").split(" ")[0];
		return rule + " [" + invocation.getDisplayName() + "]";
	}

	private static final List<String> BOTH = List.of("non-stream", "stream");

	private static List<String> expand(List<String> rules, List<String> modes) {
		return rules.stream().flatMap(r -> WireConformanceKit.KIT_DIALECTS.stream()
			.flatMap(e -> modes.stream().map(m -> r + " [" + e + " " + m + "]"))).toList();
	}

	// -------------------------------------------------------------------------

	/** The reference gateway between two hops; at most one of them is wrong. */
	abstract static class BrokenTestCase extends WireRules {
		private final String what;
		private final RelayHop.Mangle clientSide;
		private final RelayHop.Mangle upstreamSide;

		BrokenTestCase(String what, RelayHop.Mangle clientSide, RelayHop.Mangle upstreamSide) {
			this.what = what;
			this.clientSide = clientSide;
			this.upstreamSide = upstreamSide;
		}

		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			RelayHop upstreamHop = new RelayHop(upstream, upstreamSide);
			GatewayUnderTest reference = GatewayLauncher.embedded(upstreamHop.url(), engine);
			RelayHop clientHop = new RelayHop(reference.baseUrl(), clientSide);
			return new GatewayUnderTest() {
				@Override
				public URI baseUrl() {
					return clientHop.url();
				}

				@Override
				public String description() {
					return what;
				}

				@Override
				public boolean declaresAdjudicationRecord() {
					return reference.declaresAdjudicationRecord();
				}

				@Override
				public void close() {
					clientHop.close();
					reference.close();
					upstreamHop.close();
				}
			};
		}
	}

	static final RelayHop.Mangle FAITHFUL = new RelayHop.Mangle() {
	};

	/** Rewrites every stream event and every whole body. */
	static RelayHop.Mangle rewriting(UnaryOperator<String> rewrite) {
		return new RelayHop.Mangle() {
			@Override
			public String event(String event) {
				return rewrite.apply(event);
			}

			@Override
			public String body(String body) {
				return rewrite.apply(body);
			}
		};
	}

	/** Drops the stream events that match. */
	static RelayHop.Mangle dropping(Predicate<String> drop) {
		return new RelayHop.Mangle() {
			@Override
			public String event(String event) {
				return drop.test(event) ? null : event;
			}
		};
	}

	static RelayHop.Mangle statuses(IntUnaryOperator map) {
		return new RelayHop.Mangle() {
			@Override
			public int status(int status) {
				return map.applyAsInt(status);
			}
		};
	}

	static RelayHop.Mangle requests(UnaryOperator<String> rewrite) {
		return new RelayHop.Mangle() {
			@Override
			public String request(String body) {
				return rewrite.apply(body);
			}
		};
	}

	static class FaithfulHopTestCase extends BrokenTestCase {
		FaithfulHopTestCase() {
			super("reference gateway behind faithful hops", FAITHFUL, FAITHFUL);
		}
	}

	static class LeaksDeniedWhenStreamingTestCase extends BrokenTestCase {
		LeaksDeniedWhenStreamingTestCase() {
			super("broken: leaks denied calls when streaming", FAITHFUL, new RelayHop.Mangle() {
				@Override
				public String event(String event) {
					return event.replace("deny_write", "allow_write");
				}
			});
		}
	}

	static class BuffersWholeStreamTestCase extends BrokenTestCase {
		BuffersWholeStreamTestCase() {
			super("broken: buffers the whole stream", new RelayHop.Mangle() {
				@Override
				public boolean buffers() {
					return true;
				}
			}, FAITHFUL);
		}
	}

	static class DropsUsageChunkTestCase extends BrokenTestCase {
		DropsUsageChunkTestCase() {
			super("broken: drops the usage chunk", dropping(e -> e.contains("\"choices\":[]") && e.contains("\"usage\":{")), FAITHFUL);
		}
	}

	static class CorruptsArgumentsTestCase extends BrokenTestCase {
		CorruptsArgumentsTestCase() {
			super("broken: corrupts arguments", rewriting(text -> text.replace("path", "paht")), FAITHFUL);
		}
	}

	static class Turns5xxInto200TestCase extends BrokenTestCase {
		Turns5xxInto200TestCase() {
			super("broken: turns 5xx into 200", statuses(status -> status >= 500 ? 200 : status), FAITHFUL);
		}
	}

	static class RewritesModelTestCase extends BrokenTestCase {
		RewritesModelTestCase() {
			super("broken: rewrites the model alias", FAITHFUL, requests(body -> body.replace(ALIAS, "served-default")));
		}
	}

	static class SkipsTransformTestCase extends BrokenTestCase {
		SkipsTransformTestCase() {
			super("broken: allows transformed calls unchanged", FAITHFUL, rewriting(text -> text.replace("transform_exec", "allow_exec")));
		}
	}

	static class AltersContentTestCase extends BrokenTestCase {
		AltersContentTestCase() {
			super("broken: alters content", rewriting(text -> text.replace("check.", "chexk.")), FAITHFUL);
		}
	}

	static class DropsErrorFramesTestCase extends BrokenTestCase {
		DropsErrorFramesTestCase() {
			super("broken: drops error frames", dropping(e -> e.contains("\"error\"") && !e.contains("\"choices\"")), FAITHFUL);
		}
	}

	static class ForwardsPoisonTestCase extends BrokenTestCase {
		ForwardsPoisonTestCase() {
			super("broken: forwards poisoned tool results", FAITHFUL, requests(body -> body.contains("quarantined")
					? body.replace("fetch_url\"", "fetch_url\",\"leak\":\"" + SECRET + "\"") : body));
		}
	}

	static class DropsRequestIdTestCase extends BrokenTestCase {
		DropsRequestIdTestCase() {
			super("broken: drops X-Request-Id", FAITHFUL, new RelayHop.Mangle() {
				@Override
				public boolean forwards(String header) {
					return !header.equals("X-Request-Id");
				}
			});
		}
	}

	static class ClientErrorsAs500TestCase extends BrokenTestCase {
		ClientErrorsAs500TestCase() {
			super("broken: answers client errors with 500", statuses(status -> status == 400 ? 500 : status), FAITHFUL);
		}
	}

	static class SkipsCacheResetTestCase extends BrokenTestCase {
		SkipsCacheResetTestCase() {
			super("broken: never resets the engine cache", FAITHFUL, new RelayHop.Mangle() {
				@Override
				public boolean swallows(String path) {
					return path.equals("/reset_prefix_cache") || path.equals("/flush_cache");
				}
			});
		}
	}
}
