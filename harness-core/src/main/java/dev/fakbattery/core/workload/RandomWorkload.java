package dev.fakbattery.core.workload;

import java.util.Locale;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.Conversation;
import dev.fakbattery.core.load.RequestSource;

import org.apiguardian.api.API;

/**
 * {@code vllm bench serve --dataset-name random}: each request a prompt of seeded words, its length drawn uniformly
 * from {@code inputLen x [1 - rangeRatio, 1 + rangeRatio]}, and {@code max_tokens} from the same range around
 * {@code outputLen}; with {@code ignoreEos} the engine decodes exactly {@code max_tokens} (vLLM, SGLang). The lengths
 * asked are recorded with every request, so the drift against the engine's {@code usage} is reported.
 *
 * @param inputLen mean prompt length in tokens (words)
 * @param outputLen mean {@code max_tokens}
 * @param rangeRatio spread of both lengths, in {@code [0, 1)}
 * @param ignoreEos whether requests carry {@code ignore_eos: true}
 * @param seed seed of the lengths and words
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record RandomWorkload(int inputLen, int outputLen, double rangeRatio, boolean ignoreEos, long seed) implements Workload {

	public RandomWorkload {
		if (inputLen < 1 || outputLen < 1) {
			throw new IllegalArgumentException("input and output lengths must be >= 1, got " + inputLen + " and " + outputLen);
		}
		if (!(rangeRatio >= 0 && rangeRatio < 1)) {
			throw new IllegalArgumentException("range ratio must be in [0, 1), got " + rangeRatio);
		}
	}

	@Override
	public String name() {
		return "random";
	}

	@Override
	public RequestSource requests(String model, boolean stream) {
		return index -> {
			SplittableRandom random = Words.random(seed, index);
			int input = Words.length(random, inputLen, rangeRatio);
			int output = Words.length(random, outputLen, rangeRatio);
			ChatPayload payload = ChatPayload.of(model, ChatPayload.user(Words.text(random, input)), output, stream)
					.askingPromptTokens(input);
			return Conversation.single(ignoreEos ? payload.ignoringEos() : payload);
		};
	}

	@Override
	public void writeTo(ObjectNode node) {
		node.put("name", name());
		node.put("seed", seed);
		node.put("input_len", inputLen);
		node.put("output_len", outputLen);
		node.put("range_ratio", rangeRatio);
		node.put("ignore_eos", ignoreEos);
	}

	@Override
	public String describe() {
		return String.format(Locale.ROOT, "random in %d out %d (range %.2f%s, seed %d)", inputLen, outputLen, rangeRatio,
				ignoreEos ? ", ignore_eos" : "", seed);
	}
}
