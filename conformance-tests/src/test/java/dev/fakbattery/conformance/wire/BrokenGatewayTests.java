package dev.fakbattery.conformance.wire;

import static dev.fakbattery.conformance.wire.BrokenGateways.FAITHFUL;
import static dev.fakbattery.conformance.wire.BrokenGateways.dropping;
import static dev.fakbattery.conformance.wire.BrokenGateways.requests;
import static dev.fakbattery.conformance.wire.BrokenGateways.rewriting;
import static dev.fakbattery.conformance.wire.BrokenGateways.statuses;
import static dev.fakbattery.conformance.wire.SelfTest.BOTH;
import static dev.fakbattery.conformance.wire.SelfTest.NON_STREAM;
import static dev.fakbattery.conformance.wire.SelfTest.STREAM;
import static dev.fakbattery.conformance.wire.SelfTest.assertFailed;
import static dev.fakbattery.conformance.wire.SelfTest.expand;
import static dev.fakbattery.conformance.wire.SelfTest.message;
import static dev.fakbattery.conformance.wire.SelfTest.run;
import static dev.fakbattery.conformance.wire.SelfTest.union;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.conformance.wire.BrokenGateways.BrokenTestCase;
import dev.fakbattery.engine.hop.RelayHop;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.testkit.engine.Events;

/**
 * The kit tested the Reactive Streams TCK way: deliberately broken gateways (the reference gateway
 * with one wrong hop) must fail exactly the rules they break, with the rule's message, and a
 * faithful hop must fail none. This class covers W01 to W18; {@link BrokenClientWireTests} the rest.
 */
@Tag("wire")
@DisplayName("wire conformance kit self-test: broken gateways fail exactly their rules")
@Execution(ExecutionMode.CONCURRENT)
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class BrokenGatewayTests {

	@Test
	@DisplayName("leaks denied calls only when streaming")
	void leaksDeniedWhenStreaming() {
		Events tests = run(LeaksDeniedWhenStreamingTestCase.class);
		assertFailed(tests, expand(List.of("W03", "W06", "W07", "W13", "W17", "W23"), STREAM));
		assertThat(message(tests, "W13", "vllm stream")).as("both scenarios that leak, each a case")
				.startsWith("W13 [vllm stream]: 2 failing cases\n")
				.contains("  - W13 [vllm stream] on broken: leaks denied calls when streaming: expected none of [chatcmpl-tool-",
						"(kit:mixed)",
						"(kit:interleaved)");
	}

	@Test
	@DisplayName("drops the usage chunk")
	void dropsUsageChunk() {
		Events tests = run(DropsUsageChunkTestCase.class);
		assertFailed(tests, expand(List.of("W08", "W21"), STREAM));
		assertThat(message(tests, "W08", "vllm stream")).endsWith(", observed no usage");
	}

	@Test
	@DisplayName("corrupts argument fragments of allowed calls")
	void corruptsAllowedArguments() {
		Events tests = run(CorruptsArgumentsTestCase.class);
		assertFailed(tests, expand(List.of("W02", "W21"), BOTH));
		assertThat(message(tests, "W02", "vllm stream")).startsWith("W02 [vllm stream] on broken: corrupts arguments: "
				+ "expected call allow_read chatcmpl-tool-");
	}

	@Test
	@DisplayName("turns upstream 5xx into 200")
	void turnsServerErrorsInto200() {
		Events tests = run(Turns5xxInto200TestCase.class);
		assertFailed(tests, union(expand(List.of("W09"), BOTH), expand(List.of("W11"), NON_STREAM)));
		assertThat(message(tests, "W09", "vllm non-stream")).contains("expected status 503 and body ");
	}

	@Test
	@DisplayName("rewrites the client's model alias")
	void rewritesModelAlias() {
		Events tests = run(RewritesModelTestCase.class);
		assertFailed(tests, expand(List.of("W01"), BOTH));
		assertThat(message(tests, "W01", "vllm stream")).endsWith("expected upstream model [kit-model-alias], observed [served-default]");
	}

	@Test
	@DisplayName("overwrites the client's model with the {model} it was started with")
	void overwritesModelWithItsDefault() {
		Events tests = run(OverwritesModelTestCase.class);
		assertFailed(tests, expand(List.of("W01"), BOTH));
		assertThat(message(tests, "W01", "sglang non-stream"))
				.endsWith("expected upstream model [kit-model-alias], observed [kit-gateway-model]");
	}

	@Test
	@DisplayName("rewrites the engine's model on chunks after the first")
	void rewritesModelOnLaterChunks() {
		Events tests = run(RewritesLaterChunkModelTestCase.class);
		assertFailed(tests, union(expand(List.of("W01"), STREAM), expand(List.of("W21"), STREAM)));
		assertThat(message(tests, "W01", "vllm stream"))
				.endsWith("expected response model Qwen/Qwen2.5-7B-Instruct on every chunk, observed [kit-model-alias]");
	}

	@Test
	@DisplayName("allows transformed calls unchanged")
	void skipsTransform() {
		Events tests = run(SkipsTransformTestCase.class);
		assertFailed(tests, expand(List.of("W04", "W06", "W17", "W23"), BOTH));
	}

	@Test
	@DisplayName("alters content beside tool calls")
	void altersContent() {
		Events tests = run(AltersContentTestCase.class);
		assertFailed(tests, expand(List.of("W05"), BOTH));
		assertThat(message(tests, "W05", "sglang non-stream")).endsWith("expected content [I'll check.], observed [I'll chexk.]");
	}

	@Test
	@DisplayName("drops in-stream error frames")
	void dropsErrorFrames() {
		Events tests = run(DropsErrorFramesTestCase.class);
		assertFailed(tests, expand(List.of("W10", "W11"), STREAM));
	}

	@Test
	@DisplayName("forwards a poisoned tool result")
	void forwardsPoison() {
		Events tests = run(ForwardsPoisonTestCase.class);
		assertFailed(tests, expand(List.of("W12"), BOTH));
		assertThat(message(tests, "W12", "vllm non-stream"))
				.endsWith("expected the request forwarded upstream without the secret, observed the secret upstream");
	}

	@Test
	@DisplayName("drops X-Request-Id")
	void dropsRequestId() {
		Events tests = run(DropsRequestIdTestCase.class);
		assertFailed(tests, expand(List.of("W15"), BOTH));
	}

	@Test
	@DisplayName("answers client errors with 500")
	void clientErrorsAs500() {
		Events tests = run(ClientErrorsAs500TestCase.class);
		assertFailed(tests, expand(List.of("W09", "W16"), BOTH));
		assertThat(message(tests, "W16", "vllm stream")).as("both failing cases of one run, each with what arrived")
				.startsWith("W16 [vllm stream]: 2 failing cases\n")
				.contains("for a body that is not JSON, observed HTTP 500", "expected 400 for empty messages, observed HTTP 500");
		assertThat(message(tests, "W09", "sglang non-stream")).as("every error fixture of the run, named")
				.contains("(sglang/error-400)", "(sglang/error-400-validation)");
	}

	@Test
	@DisplayName("never resets the engine cache after a quarantine")
	void skipsCacheReset() {
		Events tests = run(SkipsCacheResetTestCase.class);
		assertFailed(tests, expand(List.of("W18"), BOTH));
		assertThat(message(tests, "W18", "sglang stream"))
				.endsWith("expected a POST /flush_cache after the quarantine, observed 0 reset(s)");
	}

	// -------------------------------------------------------------------------

	static class LeaksDeniedWhenStreamingTestCase extends BrokenTestCase {
		LeaksDeniedWhenStreamingTestCase() {
			super("broken: leaks denied calls when streaming", FAITHFUL,
					BrokenGateways.rewritingEvents(e -> e.replace("deny_write", "allow_write")));
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
			super("broken: rewrites the model alias", FAITHFUL, requests(body -> body.replace(WireConformanceKit.ALIAS, "served-default")));
		}
	}

	static class OverwritesModelTestCase extends BrokenTestCase {
		OverwritesModelTestCase() {
			super("broken: overwrites the model with its own", FAITHFUL,
					requests(body -> body.replace(WireConformanceKit.ALIAS, WireConformanceKit.GATEWAY_MODEL)));
		}
	}

	static class RewritesLaterChunkModelTestCase extends BrokenTestCase {
		RewritesLaterChunkModelTestCase() {
			super("broken: rewrites the model on later chunks", BrokenGateways.rewritingEvents(
					e -> e.contains("\"role\":\"assistant\"")
							? e
							: e.replace("\"model\":\"Qwen/Qwen2.5-7B-Instruct\"", "\"model\":\"kit-model-alias\"")),
					FAITHFUL);
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
					? body.replace("fetch_url\"", "fetch_url\",\"leak\":\"" + WireConformanceKit.SECRET + "\"")
					: body));
		}
	}

	static class DropsRequestIdTestCase extends BrokenTestCase {
		DropsRequestIdTestCase() {
			super("broken: drops X-Request-Id", FAITHFUL, new RelayHop.Mangle() {
				@Override
				public boolean forwards(String header) {
					return !header.equalsIgnoreCase("X-Request-Id");
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
