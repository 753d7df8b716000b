package dev.fakbattery.conformance.wire;

import static dev.fakbattery.conformance.wire.BrokenGateways.FAITHFUL;
import static dev.fakbattery.conformance.wire.BrokenGateways.eachChunk;
import static dev.fakbattery.conformance.wire.BrokenGateways.rewritingEvents;
import static dev.fakbattery.conformance.wire.BrokenGateways.toolCalls;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.Events;

class ClientExploreTests {

	@ParameterizedTest
	@ValueSource(classes = { PingEvent.class, NoIndex.class, NullsUsageChunk.class })
	void explore(Class<?> type) {
		Events tests = SelfTest.runClients(type);
		System.out.println("### " + type.getSimpleName() + " failed " + SelfTest.failedRules(tests) + " skipped " + tests.skipped().count()
				+ " aborted " + tests.aborted().count() + " ok " + tests.succeeded().count());
		tests.failed()
				.stream()
				.forEach(e -> System.out.println("###   " + SelfTest.label(e) + ": " + e.getPayload(TestExecutionResult.class)
						.flatMap(TestExecutionResult::getThrowable)
						.map(Throwable::getMessage)
						.orElse("?")));
	}

	static class OwnEvent extends BrokenGateways.BrokenClientsTestCase {
		OwnEvent() {
			super("own event", rewritingEvents(e -> e.equals("data: [DONE]") ? "event: adjudication\ndata: {\"calls\":[]}\n\n" + e : e),
					FAITHFUL);
		}
	}

	static class NullsUsage extends BrokenGateways.BrokenClientsTestCase {
		NullsUsage() {
			super("nulls usage", rewritingEvents(e -> e.contains("\"tool_calls\":[") ? eachChunk(e, chunk -> {
				if (chunk.hasNonNull("usage")) {
					chunk.putNull("usage");
				}
				return chunk;
			}) : e), FAITHFUL);
		}
	}

	static class NoIndex extends BrokenGateways.BrokenClientsTestCase {
		NoIndex() {
			super("no index", rewritingEvents(e -> eachChunk(e, chunk -> {
				for (JsonNode call : toolCalls(chunk)) {
					if (!call.hasNonNull("id")) {
						((ObjectNode) call).remove("index");
					}
				}
				return chunk;
			})), FAITHFUL);
		}
	}

	static class PingEvent extends BrokenGateways.BrokenClientsTestCase {
		PingEvent() {
			super("ping event", rewritingEvents(e -> e.equals("data: [DONE]") ? "event: ping\ndata: keep-alive\n\n" + e : e), FAITHFUL);
		}
	}

	static class NullsUsageChunk extends BrokenGateways.BrokenClientsTestCase {
		NullsUsageChunk() {
			super("nulls the usage chunk's usage", rewritingEvents(e -> e.contains("\"choices\":[]") ? eachChunk(e, chunk -> {
				chunk.putNull("usage");
				return chunk;
			}) : e), FAITHFUL);
		}
	}

	static class NoDone extends BrokenGateways.BrokenClientsTestCase {
		NoDone() {
			super("no done", rewritingEvents(e -> e.equals("data: [DONE]") ? null : e), FAITHFUL);
		}
	}

	static class DoneTwice extends BrokenGateways.BrokenClientsTestCase {
		DoneTwice() {
			super("done twice", rewritingEvents(e -> e.equals("data: [DONE]") ? e + "\n\n" + e : e), FAITHFUL);
		}
	}
}
