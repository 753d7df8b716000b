package dev.fakbattery.conformance.wire;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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
			return new View(Optional.of(e.getClass().getSimpleName() + ": " + e.getMessage()), Optional.ofNullable(status), "", List.of(),
					Optional.empty(), Optional.empty());
		}
	}

	private final OpenAIClient client;

	SdkReader(URI base) {
		this.client = OpenAIOkHttpClient.builder()
				.baseUrl(base.toString())
				.apiKey("kit-no-key")
				.maxRetries(0)
				.timeout(Duration.ofSeconds(30))
				.build();
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

	private static ChatCompletionCreateParams params(ObjectNode request) {
		ObjectNode body = request.deepCopy();
		body.remove("stream");
		try {
			return ChatCompletionCreateParams.builder()
					.body(ObjectMappers.jsonMapper().treeToValue(body, ChatCompletionCreateParams.Body.class))
					.build();
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
