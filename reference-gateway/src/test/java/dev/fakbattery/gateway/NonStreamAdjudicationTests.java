package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.gateway.GatewayClient.Answer;
import dev.fakbattery.gateway.policy.Action;
import dev.fakbattery.wire.WireFixtures;
import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("non-stream adjudication (kit fixtures, both dialects)")
@EveryFront
class NonStreamAdjudicationTests {

	private final HttpFront front;

	NonStreamAdjudicationTests(HttpFront front) {
		this.front = front;
	}

	private static final String ALIAS = "client-alias";

	private static final String ENGINE_MODEL = "Qwen/Qwen2.5-7B-Instruct";

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("mixed parallel calls: allow untouched, deny removed, transform redacted, survivors renumbered, everything else as sent")
	void mixedParallelCalls(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			String fixture = "kit/" + engine + "/tool-call-mixed";
			rig.upstream.chat(UpstreamDouble.fixture(fixture));
			Answer answer = rig.chat(GatewayClient.request(ALIAS, false));

			assertThat(answer.status()).isEqualTo(200);
			ObjectNode original = WireJson.readObject(WireFixtures.read(fixture + ".json"));
			ObjectNode expected = original.deepCopy();
			ArrayNode calls = (ArrayNode) expected.at("/choices/0/message/tool_calls");
			calls.remove(1);
			((ObjectNode) calls.get(1).get("function")).put("arguments", "{\"redacted\":true}");
			if (engine.equals("sglang")) {
				((ObjectNode) calls.get(1)).put("index", 1);
			}
			ObjectNode body = answer.json();
			JsonNode record = body.remove("adjudication");
			assertThat(body).isEqualTo(expected);
			assertThat(record).isEqualTo(KitRecord.forResponse(original));
			assertThat(body.at("/choices/0/message/content").textValue()).isEqualTo("I'll check.");
			assertThat(body.at("/choices/0/finish_reason").textValue()).isEqualTo("tool_calls");
			assertThat(body.get("usage")).isEqualTo(original.get("usage"));
			assertThat(rig.gateway.metrics().adjudications(Action.ALLOW)).isEqualTo(1);
			assertThat(rig.gateway.metrics().adjudications(Action.DENY)).isEqualTo(1);
			assertThat(rig.gateway.metrics().adjudications(Action.TRANSFORM)).isEqualTo(1);
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("an allowed call keeps its arguments string byte for byte, and the body is the upstream's plus the record")
	void allowKeptByteIdentical(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			String fixture = "kit/" + engine + "/tool-call-allow";
			rig.upstream.chat(UpstreamDouble.fixture(fixture));
			Answer answer = rig.chat(GatewayClient.request(ALIAS, false));

			ObjectNode original = WireJson.readObject(WireFixtures.read(fixture + ".json"));
			ObjectNode body = answer.json();
			JsonNode record = body.remove("adjudication");
			assertThat(body).isEqualTo(original);
			assertThat(record).isEqualTo(KitRecord.forResponse(original));
			assertThat(answer.body()).contains("\"arguments\":\"{\\\"path\\\": \\\"/etc/hosts\\\"}\"");
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "tool-call-deny-only", "tool-call-mixed", "tool-call-allow" })
	@DisplayName("llama.cpp's __verbose (the model's raw text, the calls JSON-escaped in it) is dropped beside a denied or transformed call, kept beside allowed ones")
	void verboseDroppedBesideAChangedCall(String scenario) {
		try (Rig rig = Rig.start(front, "llamacpp")) {
			ObjectNode original = WireJson.readObject(WireFixtures.read("kit/vllm/" + scenario + ".json"));
			ObjectNode verbose = original.putObject("__verbose");
			verbose.put("content", "<tool_call>\n" + WireJson.write(original.at("/choices/0/message/tool_calls"))
					+ "\n</tool_call>");
			verbose.put("stop_type", "eos");
			rig.upstream.chat(UpstreamDouble.status(200, "application/json", WireJson.write(original).getBytes(StandardCharsets.UTF_8)));
			ObjectNode body = rig.chat(GatewayClient.request(ALIAS, false)).json();

			if (scenario.equals("tool-call-allow")) {
				assertThat(body.get("__verbose")).isEqualTo(verbose);
			}
			else {
				assertThat(body.has("__verbose")).as("__verbose beside a changed call").isFalse();
				assertThat(body.at("/choices/0/message/content")).isEqualTo(original.at("/choices/0/message/content"));
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("when every call is denied: no call left, finish_reason stop, content as the upstream sent it, no byte of the call outside the record")
	void denyOnly(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			String fixture = "kit/" + engine + "/tool-call-deny-only";
			rig.upstream.chat(UpstreamDouble.fixture(fixture));
			Answer answer = rig.chat(GatewayClient.request(ALIAS, false));

			ObjectNode original = WireJson.readObject(WireFixtures.read(fixture + ".json"));
			ObjectNode expected = original.deepCopy();
			ObjectNode message = (ObjectNode) expected.at("/choices/0/message");
			if (engine.equals("sglang")) {
				message.putNull("tool_calls");
			}
			else {
				message.remove("tool_calls");
			}
			((ObjectNode) expected.at("/choices/0")).put("finish_reason", "stop");
			ObjectNode body = answer.json();
			JsonNode record = body.remove("adjudication");
			assertThat(body).isEqualTo(expected);
			assertThat(record).isEqualTo(KitRecord.forResponse(original));
			String withoutRecord = WireJson.write(body);
			String deniedId = original.at("/choices/0/message/tool_calls/0/id").textValue();
			assertThat(withoutRecord).doesNotContain(deniedId).doesNotContain("deny_write");
			assertThat(answer.body()).doesNotContain("/etc/passwd");
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("a text answer passes unchanged with an empty record")
	void textAnswer(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			rig.upstream.chat(UpstreamDouble.fixture(engine + "/chat-text"));
			Answer answer = rig.chat(GatewayClient.request(ALIAS, false));

			ObjectNode body = answer.json();
			JsonNode record = body.remove("adjudication");
			assertThat(body).isEqualTo(WireJson.readObject(WireFixtures.read(engine + "/chat-text.json")));
			assertThat(record).isEqualTo(KitRecord.empty());
			assertThat(answer.contentType()).isEqualTo("application/json");
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("the client's bytes reach the engine unchanged (model alias, unknown fields) and the engine's model comes back")
	void modelAliasUnchanged(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			rig.upstream.chat(UpstreamDouble.fixture("kit/" + engine + "/tool-call-mixed"));
			String request = GatewayClient.request(ALIAS, false);
			Answer answer = rig.chat(request);

			UpstreamDouble.Received forwarded = rig.upstream.chatRequest();
			assertThat(new String(forwarded.body(), StandardCharsets.UTF_8)).isEqualTo(request);
			assertThat(forwarded.json().get("model").textValue()).isEqualTo(ALIAS);
			assertThat(answer.json().get("model").textValue()).isEqualTo(ENGINE_MODEL);
		}
	}
}
