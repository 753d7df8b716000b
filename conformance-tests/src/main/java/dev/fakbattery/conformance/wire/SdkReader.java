package dev.fakbattery.conformance.wire;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.ObjectMappers;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIServiceException;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessageParam;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;

/**
 * The kit's requests sent and read by the official OpenAI Java SDK, the way its documentation shows: {@code create}
 * for a whole answer; {@code createStreaming}, iterating the chunks and their choices' deltas, with the SDK's own
 * {@link ChatCompletionAccumulator} assembling tool calls. What the SDK made of the answer, or the exception it threw,
 * is the {@link View} the kit compares with its own reading.
 */
final class SdkReader implements AutoCloseable {

	/** The SDK and its version, for failure messages. */
	static final String SDK = "OpenAI Java SDK "
			+ Optional.ofNullable(OpenAIClient.class.getPackage().getImplementationVersion()).orElse("4.8.0");

	/** What the SDK read: an answer, or the exception it threw (its class, message and HTTP status). */
	record View(Optional<String> failure, Optional<Integer> status, String content, List<Exchange.Call> calls, Optional<String> finish,
			Optional<Long> completionTokens) {

		static View failed(Throwable e, Integer status) {
			return failed(e, status, null);
		}

		/**
		 * The client threw {@code e}: its class and message (or that it had none), and, where the client's exception
		 * carries them, the HTTP status and the first bytes of the body that arrived ({@code body}; {@code null} where
		 * the client does not keep it).
		 */
		static View failed(Throwable e, Integer status, String body) {
			String message = e.getMessage() == null || e.getMessage().isBlank() ? "(no message)" : e.getMessage();
			String arrived = status == null ? "" : "; HTTP " + status;
			if (body != null) {
				arrived += (arrived.isEmpty() ? "; " : ", ")
						+ (body.isBlank() ? "empty body" : "body " + WireChecks.abbreviate(body.strip()));
			}
			return new View(Optional.of(e.getClass().getSimpleName() + ": " + message + arrived), Optional.ofNullable(status), "",
					List.of(), Optional.empty(), Optional.empty());
		}
	}

	private final OpenAIClient client;

	/** A reader of the answers at {@code base}, sending {@code headers} (the gateway's {@code gateway.header.*}) with each request. */
	SdkReader(URI base, Map<String, String> headers) {
		OpenAIOkHttpClient.Builder builder = OpenAIOkHttpClient.builder()
				.baseUrl(base.toString())
				.apiKey("kit-no-key")
				.maxRetries(0)
				.timeout(Duration.ofSeconds(30));
		headers.forEach(builder::putHeader);
		this.client = builder.build();
	}

	/** Sends the kit's request body (its {@code stream} flag decides how) and reads the answer. */
	View read(ObjectNode request) {
		boolean stream = request.path("stream").asBoolean();
		ChatCompletionCreateParams params = params(request);
		try {
			return stream ? streamed(params) : whole(params);
		}
		catch (OpenAIServiceException e) {
			return View.failed(e, e.statusCode());
		}
		catch (RuntimeException e) {
			return View.failed(e, null);
		}
	}

	/**
	 * The SDK's reading of each request shape: the body with every user message's text blanked. The SDK reads a body
	 * into its typed params slowly (each union member tried in turn: about 2 ms of CPU per kit request with C1, against
	 * 14 µs from a read shape, 2026-12-02; JFR put it at a tenth of the samples of a conformance-tests run), and the
	 * kit's requests differ only in that text (a nonce per request), so each shape is read once and the texts are put
	 * back ({@link #params}). A few dozen shapes: the scenarios, the modes and the captured wires' tools.
	 */
	private static final Map<String, ChatCompletionCreateParams.Body> SHAPES = new ConcurrentHashMap<>();

	/** The SDK's params of the kit's {@code request} (its {@code stream} flag removed: the SDK call decides that). */
	static ChatCompletionCreateParams params(ObjectNode request) {
		ObjectNode body = request.deepCopy();
		body.remove("stream");
		List<String> texts = new ArrayList<>();
		ObjectNode shape = body.deepCopy();
		shape.path("messages").forEach(message -> {
			if (message.path("role").asText().equals("user") && message.path("content").isTextual()) {
				texts.add(message.path("content").asText());
				((ObjectNode) message).put("content", "");
			}
		});
		ChatCompletionCreateParams.Body template = SHAPES.computeIfAbsent(shape.toString(), key -> sdkBody(shape));
		Iterator<String> text = texts.iterator();
		List<ChatCompletionMessageParam> messages = template.messages().stream().map(message -> {
			boolean blanked = message.isUser() && message.asUser().content().isText();
			return blanked
					? ChatCompletionMessageParam.ofUser(message.asUser().toBuilder().content(text.next()).build())
					: message;
		}).toList();
		return ChatCompletionCreateParams.builder().body(template.toBuilder().messages(messages).build()).build();
	}

	/** The SDK's own reading of {@code body}, as its users' JSON would be read. */
	static ChatCompletionCreateParams.Body sdkBody(ObjectNode body) {
		try {
			return ObjectMappers.jsonMapper().treeToValue(body, ChatCompletionCreateParams.Body.class);
		}
		catch (JsonProcessingException e) {
			throw new IllegalStateException("the kit's request is not a chat completion request to the SDK: " + e.getOriginalMessage(), e);
		}
	}

	private View whole(ChatCompletionCreateParams params) {
		ChatCompletion completion = client.chat().completions().create(params);
		return view(completion, completion.choices().get(0).message().content().orElse(""));
	}

	private View streamed(ChatCompletionCreateParams params) {
		ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
		StringBuilder content = new StringBuilder();
		try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params)) {
			stream.stream().forEach(chunk -> {
				accumulator.accumulate(chunk);
				chunk.choices().forEach(choice -> choice.delta().content().ifPresent(content::append));
			});
		}
		return view(accumulator.chatCompletion(), content.toString());
	}

	private static View view(ChatCompletion completion, String content) {
		ChatCompletion.Choice choice = completion.choices().get(0);
		List<Exchange.Call> calls = choice.message().toolCalls().orElse(List.of()).stream().map(SdkReader::call).toList();
		return new View(Optional.empty(), Optional.of(200), content, calls, Optional.of(choice.finishReason().asString()),
				completion.usage().map(usage -> usage.completionTokens()));
	}

	private static Exchange.Call call(ChatCompletionMessageToolCall call) {
		var function = call.asFunction();
		return new Exchange.Call(function.id(), function.function().name(), function.function().arguments(), null);
	}

	@Override
	public void close() {
		client.close();
	}
}
