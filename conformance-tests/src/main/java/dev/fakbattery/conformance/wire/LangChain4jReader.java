package dev.fakbattery.conformance.wire;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;

/**
 * The kit's requests sent and read by LangChain4j's OpenAI client, the way its documentation shows:
 * {@link OpenAiChatModel#chat(ChatRequest)} for a whole answer; {@link OpenAiStreamingChatModel} with a
 * {@link StreamingChatResponseHandler} for a stream, its partial texts joined and its complete response's tool
 * execution requests, finish reason and token usage taken. What it read, or the error it reported, is the
 * {@link SdkReader.View} the client rule C01 compares with the kit's reading.
 */
final class LangChain4jReader {

	/** The client and its version, for failure messages. */
	static final String CLIENT = "LangChain4j "
			+ Optional.ofNullable(OpenAiChatModel.class.getPackage().getImplementationVersion()).orElse("1.19.0") + " OpenAI client";

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final OpenAiChatModel whole;

	private final OpenAiStreamingChatModel streaming;

	LangChain4jReader(URI base, String model, Map<String, String> headers) {
		this.whole = OpenAiChatModel.builder()
				.baseUrl(base.toString())
				.apiKey("kit-no-key")
				.customHeaders(headers)
				.modelName(model)
				.maxRetries(0)
				.timeout(TIMEOUT)
				.build();
		this.streaming = OpenAiStreamingChatModel.builder()
				.baseUrl(base.toString())
				.apiKey("kit-no-key")
				.customHeaders(headers)
				.modelName(model)
				.timeout(TIMEOUT)
				.build();
	}

	/** Sends the kit's request (its {@code stream} flag decides how) and reads the answer. */
	SdkReader.View read(ObjectNode request) {
		ChatRequest chat = chatRequest(request);
		try {
			return request.path("stream").asBoolean() ? streamed(chat) : view(whole.chat(chat), null);
		}
		catch (RuntimeException e) {
			return failed(e);
		}
	}

	/** The kit's OpenAI request as LangChain4j's: messages, tools (any object), tool choice, temperature, max tokens. */
	private static ChatRequest chatRequest(ObjectNode request) {
		List<ChatMessage> messages = new ArrayList<>();
		for (JsonNode message : request.path("messages")) {
			switch (message.path("role").asText()) {
				case "assistant" -> {
					List<ToolExecutionRequest> calls = new ArrayList<>();
					message.path("tool_calls")
							.forEach(call -> calls.add(ToolExecutionRequest.builder()
									.id(call.path("id").asText())
									.name(call.path("function").path("name").asText())
									.arguments(call.path("function").path("arguments").asText())
									.build()));
					messages.add(AiMessage.from(calls));
				}
				case "tool" ->
					messages.add(ToolExecutionResultMessage.from(message.path("tool_call_id").asText(), message.path("name").asText(),
							message.path("content").asText()));
				default -> messages.add(UserMessage.from(message.path("content").asText()));
			}
		}
		List<ToolSpecification> tools = new ArrayList<>();
		request.path("tools")
				.forEach(tool -> tools.add(ToolSpecification.builder()
						.name(tool.path("function").path("name").asText())
						.parameters(JsonObjectSchema.builder().build())
						.build()));
		return ChatRequest.builder()
				.messages(messages)
				.toolSpecifications(tools)
				.toolChoice(ToolChoice.AUTO)
				.temperature(request.path("temperature").asDouble())
				.maxOutputTokens(request.path("max_tokens").asInt())
				.build();
	}

	private SdkReader.View streamed(ChatRequest chat) {
		StringBuilder content = new StringBuilder();
		CompletableFuture<ChatResponse> done = new CompletableFuture<>();
		streaming.chat(chat, new StreamingChatResponseHandler() {
			@Override
			public void onPartialResponse(String partial) {
				content.append(partial);
			}

			@Override
			public void onCompleteResponse(ChatResponse response) {
				done.complete(response);
			}

			@Override
			public void onError(Throwable error) {
				done.completeExceptionally(error);
			}
		});
		try {
			return view(done.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS), content.toString());
		}
		catch (ExecutionException e) {
			return failed(e.getCause());
		}
		catch (TimeoutException e) {
			return failed(new IllegalStateException("no complete response nor error within " + TIMEOUT.toSeconds() + " s", e));
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return failed(e);
		}
	}

	private static SdkReader.View view(ChatResponse response, String streamedContent) {
		AiMessage message = response.aiMessage();
		List<Exchange.Call> calls = message.toolExecutionRequests()
				.stream()
				.map(c -> new Exchange.Call(c.id(), c.name(), c.arguments(), null))
				.toList();
		String content = streamedContent != null ? streamedContent : Optional.ofNullable(message.text()).orElse("");
		return new SdkReader.View(Optional.empty(), Optional.of(200), content, calls,
				Optional.ofNullable(response.finishReason()).map(Enum::name),
				Optional.ofNullable(response.tokenUsage()).map(u -> u.outputTokenCount()).map(Integer::longValue));
	}

	/**
	 * The error, with the HTTP status and the body of the {@link HttpException} among its causes, if any (LangChain4j's
	 * message of an HTTP error is the body that arrived, empty for an empty body).
	 */
	static SdkReader.View failed(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof HttpException http) {
				return SdkReader.View.failed(error, http.statusCode(), http.getMessage() == null ? "" : http.getMessage());
			}
		}
		return SdkReader.View.failed(error, null);
	}
}
