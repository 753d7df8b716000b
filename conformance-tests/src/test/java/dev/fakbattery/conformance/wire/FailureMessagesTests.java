package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InvalidRequestException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What a failing case says: what arrived (status, first bytes of the body) and what was expected, in plain words. */
@DisplayName("failure messages name what arrived and what was expected")
class FailureMessagesTests {

	private static final String CHUNK = "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[]}";

	@Test
	@DisplayName("W20: a stream without [DONE] says so, without a piece of the stream after a [DONE] that never came")
	void framingWithoutDone() {
		Exchange answer = Exchange.of("data: " + CHUNK + "\n\ndata: " + CHUNK + "\n\n", true);

		assertThat(WireChecks.framing(answer)).singleElement()
				.asString()
				.startsWith("no [DONE]: the stream ended after 2 event(s), the last {\"id\"")
				.doesNotContain("then");
	}

	@Test
	@DisplayName("W20: bytes after the last [DONE] are named as such")
	void framingAfterDone() {
		Exchange answer = Exchange.of("data: " + CHUNK + "\n\ndata: [DONE]\n\nevent: trailer\n\n", true);

		assertThat(String.join("; ", WireChecks.framing(answer))).contains("then after the last [DONE] event: trailer");
	}

	@Test
	@DisplayName("C01: LangChain4j's error on a bare 400 names the status and the empty body, not an empty message")
	void langchain4jBare400() {
		SdkReader.View view = LangChain4jReader.failed(new InvalidRequestException("", new HttpException(400, "")));

		assertThat(view.failure()).hasValue("InvalidRequestException: (no message); HTTP 400, empty body");
		assertThat(view.status()).hasValue(400);
	}

	@Test
	@DisplayName("C01: and the first bytes of a body that came")
	void langchain4jBody() {
		String body = "{\"error\":\"Upgrade not supported\"}" + "x".repeat(400);
		SdkReader.View view = LangChain4jReader.failed(new InvalidRequestException(body, new HttpException(400, body)));

		assertThat(view.failure().orElseThrow()).contains("; HTTP 400, body {\"error\":\"Upgrade not supported\"}xxx").endsWith("...");
	}

	@Test
	@DisplayName("C04: a client that reads the relayed answer as it reads the engine's original, unlike the kit, is not failed")
	void likeWithLike() {
		String truncated = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
				+ "\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"allow_read\","
				+ "\"arguments\":\"{\\\"\"}}]}}]}\n\n";
		Exchange relayed = Exchange.of(truncated, true);
		Exchange original = Exchange.of(truncated, true);
		WireChecks.Client client = new WireChecks.Client("LangChain.js", true, UnaryOperator.identity(), true);
		SdkReader.View reads = new SdkReader.View(Optional.empty(), Optional.of(200), "",
				List.of(new Exchange.Call("call_1", "allow_read", "{}", 0)), Optional.empty(), Optional.empty());

		WireChecks.SdkJudgement kitJudgement = WireChecks.client(client, relayed, reads, () -> reads, "kit:truncated");
		Optional<WireChecks.SdkJudgement> likeWithLike = WireChecks.asTheEngineOriginal(client, relayed, original, reads, reads,
				"kit:truncated");

		assertThat(kitJudgement.passed()).as("the kit reads arguments {\", the client {}").isFalse();
		assertThat(likeWithLike).hasValueSatisfying(j -> {
			assertThat(j.passed()).isTrue();
			assertThat(j.judged()).isFalse();
			assertThat(j.observed()).contains("from the gateway and from the engine's original alike");
		});
	}

	@Test
	@DisplayName("C04: a client that reads the gateway's answer unlike the engine's original stays failed")
	void unlikeTheOriginal() {
		Exchange answer = Exchange.of("data: " + CHUNK + "\n\ndata: [DONE]\n\n", true);
		WireChecks.Client client = WireChecks.Client.verbatim("client");
		SdkReader.View fromGateway = new SdkReader.View(Optional.empty(), Optional.of(200), "changed", List.of(), Optional.empty(),
				Optional.empty());
		SdkReader.View fromEngine = new SdkReader.View(Optional.empty(), Optional.of(200), "", List.of(), Optional.empty(),
				Optional.empty());

		assertThat(WireChecks.asTheEngineOriginal(client, answer, answer, fromGateway, fromEngine, "kit:text")).isEmpty();
	}
}
