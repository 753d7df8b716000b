package dev.fakbattery.core.workload;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.RequestSource;

import org.apiguardian.api.API;

/**
 * The tax witness's request, fak's battery's: one fixed counting prompt whose greedy answer is longer than
 * {@code max_tokens}, so every request decodes exactly {@code max_tokens} tokens. The default workload.
 *
 * @param maxTokens {@code max_tokens} of every request
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record FixedWorkload(int maxTokens) implements Workload {

	public FixedWorkload {
		if (maxTokens < 1) {
			throw new IllegalArgumentException("maxTokens must be >= 1, got " + maxTokens);
		}
	}

	@Override
	public String name() {
		return "fixed";
	}

	@Override
	public long seed() {
		return 0;
	}

	@Override
	public RequestSource requests(String model, boolean stream) {
		ChatPayload payload = stream
				? ChatPayload.streaming(model, ChatPayload.COUNTING_PROMPT, maxTokens)
				: ChatPayload.nonStreaming(model, ChatPayload.COUNTING_PROMPT, maxTokens);
		return RequestSource.fixed(payload);
	}

	@Override
	public void writeTo(ObjectNode node) {
		node.put("name", name());
		node.put("seed", seed());
		node.put("prompt", ChatPayload.COUNTING_PROMPT);
		node.put("max_tokens", maxTokens);
	}

	@Override
	public String describe() {
		return "fixed counting prompt, max_tokens " + maxTokens;
	}
}
