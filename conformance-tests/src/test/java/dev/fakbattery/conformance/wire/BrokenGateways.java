package dev.fakbattery.conformance.wire;

import java.net.URI;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.engine.hop.RelayHop;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.WireJson;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The kit's deliberately broken gateways: the reference gateway between two {@link RelayHop}s, one of them wrong.
 * Each {@code ...TestCase} runs the whole kit ({@link WireVerification}); {@link BrokenGatewayTests} says which rules each
 * must fail.
 */
final class BrokenGateways {

	private BrokenGateways() {
	}

	/** The reference gateway between two hops; at most one of them is wrong. */
	abstract static class BrokenTestCase extends WireVerification {
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
			return broken(what, clientSide, upstreamSide, upstream, engine);
		}
	}

	/** The client rules ({@link ClientVerification}) on the reference gateway between two hops; at most one of them is wrong. */
	abstract static class BrokenClientsTestCase extends ClientVerification {
		private final String what;
		private final RelayHop.Mangle clientSide;
		private final RelayHop.Mangle upstreamSide;

		BrokenClientsTestCase(String what, RelayHop.Mangle clientSide, RelayHop.Mangle upstreamSide) {
			this.what = what;
			this.clientSide = clientSide;
			this.upstreamSide = upstreamSide;
		}

		/** The vLLM dialect only: the breakages concern the stream's framing, which both dialects share. */
		@Override
		protected List<Dialect> engines() {
			return List.of(Dialect.VLLM);
		}

		/** Streams only: every breakage of the client self-test is one of a stream. */
		@Override
		Stream<Arguments> targets() {
			return super.targets().filter(target -> "stream".equals(((Named<?>) target.get()[1]).getPayload()));
		}

		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return broken(what, clientSide, upstreamSide, upstream, engine);
		}
	}

	/** The reference gateway in front of {@code upstream}, between a {@code clientSide} and an {@code upstreamSide} hop. */
	static GatewayUnderTest broken(String what, RelayHop.Mangle clientSide, RelayHop.Mangle upstreamSide, URI upstream, Dialect engine) {
		return broken(what, clientSide, upstreamSide, upstream, engine, url -> GatewayLauncher.embedded(url, engine));
	}

	/** A {@code gateway} (started in front of the URL it is given) between a {@code clientSide} and an {@code upstreamSide} hop. */
	static GatewayUnderTest broken(String what, RelayHop.Mangle clientSide, RelayHop.Mangle upstreamSide, URI upstream, Dialect engine,
			Function<URI, GatewayUnderTest> gateway) {
		RelayHop upstreamHop = new RelayHop(upstream, upstreamSide);
		GatewayUnderTest reference = gateway.apply(upstreamHop.url());
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

	/** Rewrites stream events only. */
	static RelayHop.Mangle rewritingEvents(UnaryOperator<String> rewrite) {
		return new RelayHop.Mangle() {
			@Override
			public String event(String event) {
				return rewrite.apply(event);
			}
		};
	}

	/** Rewrites whole bodies only. */
	static RelayHop.Mangle rewritingBodies(UnaryOperator<String> rewrite) {
		return new RelayHop.Mangle() {
			@Override
			public String body(String body) {
				return rewrite.apply(body);
			}
		};
	}

	/** Drops the stream events that match. */
	static RelayHop.Mangle dropping(Predicate<String> drop) {
		return rewritingEvents(event -> drop.test(event) ? null : event);
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

	/** Rewrites the JSON of each {@code data:} event that is a JSON object; other events pass. */
	static String eachChunk(String event, UnaryOperator<ObjectNode> rewrite) {
		if (!event.startsWith("data: {")) {
			return event;
		}
		return WireJson.read(event.substring("data: ".length()))
				.filter(JsonNode::isObject)
				.map(json -> "data: " + WireJson.write(rewrite.apply((ObjectNode) json)))
				.orElse(event);
	}

	/** Every tool-call delta (stream) or tool call (body) of a chunk or body, as objects. */
	static Iterable<JsonNode> toolCalls(ObjectNode json) {
		ArrayNode calls = json.arrayNode();
		for (JsonNode choice : json.path("choices")) {
			choice.path("delta").path("tool_calls").forEach(calls::add);
			choice.path("message").path("tool_calls").forEach(calls::add);
		}
		return calls;
	}

	/** Every string value longer than {@code limit}, cut to it. */
	static JsonNode capStrings(JsonNode node, int limit) {
		if (node instanceof ObjectNode object) {
			object.properties().forEach(field -> {
				if (field.getValue().isTextual() && field.getValue().textValue().length() > limit) {
					field.setValue(TextNode.valueOf(field.getValue().textValue().substring(0, limit)));
				}
				else {
					capStrings(field.getValue(), limit);
				}
			});
		}
		else if (node instanceof ArrayNode array) {
			array.forEach(element -> capStrings(element, limit));
		}
		return node;
	}
}
