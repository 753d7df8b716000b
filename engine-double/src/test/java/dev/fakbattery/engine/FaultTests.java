package dev.fakbattery.engine;

import static dev.fakbattery.engine.WireShapes.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("fault injection")
class FaultTests extends InstantDoubles {

	static final String BODY = "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	static final String STREAM = "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true}";

	@Test
	@DisplayName("status=N answers N with the dialect's error body")
	void status() {
		HttpResponse<String> v500 = TestHttp.post(chat(vllm), BODY, Fault.HEADER, "status=500");
		HttpResponse<String> v503 = TestHttp.post(chat(vllm), STREAM, Fault.HEADER, "status=503");
		HttpResponse<String> s500 = TestHttp.post(chat(sglang), BODY, Fault.HEADER, "status=500");
		HttpResponse<String> s401 = TestHttp.post(chat(sglang), BODY, Fault.HEADER, "status=401");

		assertThat(v500.statusCode()).isEqualTo(500);
		assertThat(v500.body()).isEqualTo(
				"{\"error\":{\"message\":\"Injected fault (status=500)\",\"type\":\"InternalServerError\",\"param\":null,\"code\":500}}");
		assertThat(v503.statusCode()).isEqualTo(503);
		assertThat(parse(v503.body()).at("/error/type").asText()).isEqualTo("ServiceUnavailableError");
		assertThat(s500.body()).isEqualTo(
				"{\"object\":\"error\",\"message\":\"Injected fault (status=500)\",\"type\":\"INTERNAL_SERVER_ERROR\",\"param\":null,\"code\":500}");
		assertThat(s401.statusCode()).isEqualTo(401);
		assertThat(s401.body()).isEqualTo("{\"error\":\"Unauthorized\"}");
	}

	@Test
	@DisplayName("abort-after=3: three events, then the connection closes without the terminating chunk; counted as abort")
	void abortAfter() {
		String raw = TestHttp.raw(vllm, "/v1/chat/completions", STREAM, Fault.HEADER + ": abort-after=3");
		TestHttp.Stream stream = TestHttp.stream(chat(sglang), STREAM, Fault.HEADER, "abort-after=3");

		assertThat(raw).startsWith("HTTP/1.1 200 OK").contains("Transfer-encoding: chunked");
		assertThat(raw.split("data: ", -1)).hasSize(4);
		assertThat(raw).doesNotContain("[DONE]").doesNotEndWith("\r\n0\r\n\r\n");
		assertThat(stream.failure()).as("the client sees a broken body").isNotNull();
		assertThat(stream.data()).doesNotContain("[DONE]");
		assertThat(TestHttp.get(vllm.rootUrl() + "/metrics").body())
				.containsPattern("vllm:request_success_total\\{engine=\"0\",finished_reason=\"abort\",model_name=\"[^\"]+\"} [1-9]");
	}

	@Test
	@DisplayName("abort-after on a non-streamed request closes the connection without an answer")
	void abortNonStreamed() {
		assertThatThrownBy(() -> TestHttp.post(chat(sglang), BODY, Fault.HEADER, "abort-after=0"))
				.isInstanceOf(UncheckedIOException.class);
	}

	@Test
	@DisplayName("stall-ms=200 with stall-after=2 pauses the stream after its second event")
	void stallMidStream() {
		TestHttp.Stream stream = TestHttp.stream(chat(sglang), STREAM, Fault.HEADER, "stall-ms=200; stall-after=2");
		List<TestHttp.Event> events = stream.events();

		// the pause starts when the server wrote event 2, which the client only bounds from above: allow read jitter
		assertThat(events.get(2).nanos() - stream.sentNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
		assertThat(events.get(2).nanos() - events.get(1).nanos()).isGreaterThanOrEqualTo(Duration.ofMillis(150).toNanos());
		assertThat(stream.data().getLast()).isEqualTo("[DONE]");
	}

	@Test
	@DisplayName("stall-ms=200 alone delays the first event by at least 200 ms, after the headers")
	void stallBeforeFirstEvent() {
		TestHttp.Stream stream = TestHttp.stream(chat(vllm), STREAM, Fault.HEADER, "stall-ms=200");

		assertThat(stream.events().getFirst().nanos() - stream.sentNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
	}

	@Test
	@DisplayName("malformed-after=2 inserts one non-JSON data line after the second event, then the stream goes on")
	void malformedAfter() {
		TestHttp.Stream stream = TestHttp.stream(chat(vllm), STREAM, Fault.HEADER, "malformed-after=2");

		assertThat(stream.data().get(2)).isEqualTo(Fault.MALFORMED_LINE.substring("data: ".length()));
		assertThat(stream.data()).filteredOn(d -> d.startsWith("{\"malformed")).hasSize(1);
		assertThat(stream.data().getLast()).isEqualTo("[DONE]");
	}

	@Test
	@DisplayName("a count beyond the stream fires just before [DONE]")
	void countBeyondStream() {
		TestHttp.Stream stream = TestHttp.stream(chat(sglang), STREAM, Fault.HEADER, "stream-error-after=999");
		List<String> data = stream.data();

		assertThat(data.get(data.size() - 2)).startsWith("{\"error\": {\"object\": \"error\"");
		assertThat(data.getLast()).isEqualTo("[DONE]");
		assertThat(WireShapes.kind(data.get(data.size() - 3))).isEqualTo(WireShapes.Kind.FINISH);
	}

	@Test
	@DisplayName("non-streamed: stream-error-after answers 500, malformed-after a truncated body")
	void nonStreamedFaults() {
		HttpResponse<String> error = TestHttp.post(chat(vllm), BODY, Fault.HEADER, "stream-error-after=1");
		HttpResponse<String> malformed = TestHttp.post(chat(vllm), BODY, Fault.HEADER, "malformed-after=1");

		assertThat(error.statusCode()).isEqualTo(500);
		assertThat(parse(error.body()).at("/error/type").asText()).isEqualTo("InternalServerError");
		assertThat(malformed.statusCode()).isEqualTo(200);
		assertThatThrownBy(() -> parse(malformed.body())).isInstanceOf(UncheckedIOException.class);
	}

	@Test
	@DisplayName("nextFault applies to exactly the next request without a fault header")
	void programmatic() {
		vllm.nextFault(Fault.status(429));

		HttpResponse<String> first = TestHttp.post(chat(vllm), BODY);
		HttpResponse<String> second = TestHttp.post(chat(vllm), BODY);

		assertThat(first.statusCode()).isEqualTo(429);
		assertThat(parse(first.body()).at("/error/type").asText()).isEqualTo("TooManyRequestsError");
		assertThat(second.statusCode()).isEqualTo(200);
	}

	@Test
	@DisplayName("an unparseable fault header is a 400 that names the bad part")
	void badHeader() {
		HttpResponse<String> response = TestHttp.post(chat(vllm), BODY, Fault.HEADER, "explode=1");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(parse(response.body()).at("/error/message").asText()).startsWith("Unknown X-Double-Fault key [explode]");
	}

	@Test
	@DisplayName("Fault.parse reads both separators and toHeader round-trips")
	void parseRoundTrip() {
		Fault fault = Fault.parse("stall-ms=50, stall-after=2; malformed-after=4");

		assertThat(fault).isEqualTo(new Fault(Fault.UNSET, Fault.UNSET, 50, 2, 4, Fault.UNSET));
		assertThat(Fault.parse(fault.toHeader())).isEqualTo(fault);
		assertThat(Fault.parse(Fault.abortAfter(3).toHeader())).isEqualTo(Fault.abortAfter(3));
		assertThat(Fault.parse("")).matches(Fault::isNone);
	}

	@Test
	@DisplayName("Fault.parse rejects bad values with the part and the rule")
	void parseErrors() {
		assertThatThrownBy(() -> Fault.parse("status=abc"))
				.hasMessage("Unable to parse X-Double-Fault part [status=abc]: value must be a whole number 0..2147483647");
		assertThatThrownBy(() -> Fault.parse("status=42")).hasMessage("status must be an HTTP status 100..599, was 42");
		assertThatThrownBy(() -> Fault.parse("abort")).hasMessage("Unable to parse X-Double-Fault part [abort]: expected key=value");
	}
}
