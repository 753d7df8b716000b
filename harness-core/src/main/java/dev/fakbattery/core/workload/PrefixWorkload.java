package dev.fakbattery.core.workload;

import java.util.Locale;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.Conversation;
import dev.fakbattery.core.load.RequestSource;

import org.apiguardian.api.API;

/**
 * A prefix-cache workload ({@code vllm bench serve --dataset-name prefix_repetition}, SGLang's
 * {@code generated-shared-prefix}): {@code prefixes} seeded system prompts of {@code prefixLen} words, each request
 * one of them (request {@code i} takes prefix {@code i mod prefixes}) followed by its own {@code suffixLen} words.
 * Where the engine reports cached prompt tokens ({@code usage.prompt_tokens_details.cached_tokens}, or its prefix-cache
 * metrics), the artifact reports the share served from the cache.
 *
 * @param prefixes how many distinct shared prefixes
 * @param prefixLen words of each prefix
 * @param suffixLen words of each request's own suffix
 * @param outputLen {@code max_tokens}
 * @param seed seed of the prefixes and suffixes
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record PrefixWorkload(int prefixes, int prefixLen, int suffixLen, int outputLen, long seed) implements Workload {

	public PrefixWorkload {
		if (prefixes < 1 || prefixLen < 1 || suffixLen < 1 || outputLen < 1) {
			throw new IllegalArgumentException("prefix count and every length must be >= 1, got " + prefixes + ", " + prefixLen + ", "
					+ suffixLen + ", " + outputLen);
		}
	}

	@Override
	public String name() {
		return "prefix";
	}

	@Override
	public RequestSource requests(String model, boolean stream) {
		String[] shared = new String[prefixes];
		for (int p = 0; p < prefixes; p++) {
			shared[p] = Words.text(Words.random(seed, -1 - p), prefixLen);
		}
		return index -> {
			SplittableRandom random = Words.random(seed, index);
			var messages = ChatPayload.user(Words.text(random, suffixLen));
			messages.insertObject(0).put("role", "system").put("content", shared[Math.floorMod(index, prefixes)]);
			return Conversation.single(ChatPayload.of(model, messages, outputLen, stream)
					.ignoringEos()
					.askingPromptTokens(prefixLen + suffixLen));
		};
	}

	@Override
	public void writeTo(ObjectNode node) {
		node.put("name", name());
		node.put("seed", seed);
		node.put("prefix_count", prefixes);
		node.put("prefix_len", prefixLen);
		node.put("suffix_len", suffixLen);
		node.put("output_len", outputLen);
		node.put("ignore_eos", true);
	}

	@Override
	public String describe() {
		return String.format(Locale.ROOT, "prefix %d x %d words + %d unique, out %d (seed %d)", prefixes, prefixLen, suffixLen, outputLen,
				seed);
	}
}
