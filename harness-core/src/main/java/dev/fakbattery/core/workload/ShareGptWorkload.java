package dev.fakbattery.core.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.Conversation;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.wire.Json;

import org.apiguardian.api.API;

/**
 * {@code vllm bench serve --dataset-name sharegpt}: conversations from a ShareGPT-format JSON file (an array of
 * {@code {"conversations": [{"from": "human", "value": ...}, {"from": "gpt", "value": ...}, ...]}}), never downloaded:
 * the file is given by {@code dataset.path} (the repository ships a tiny sample,
 * {@code fixtures/workloads/sharegpt-sample.json}). As vLLM does: the first human turn is the prompt, the reply's
 * length is {@code max_tokens}; pairs shorter than 4 or with a prompt over 1024 or a total over 2048 are left out
 * (lengths in words here, in tokens there: the drift is reported); the pairs are shuffled with the seed and request
 * {@code i} takes pair {@code i mod pairs}.
 *
 * @param path the dataset file
 * @param pairs the usable prompt/reply pairs, in the seeded order
 * @param skipped conversations left out, for the artifact
 * @param seed seed of the order
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record ShareGptWorkload(Path path, List<Pair> pairs, int skipped, long seed) implements Workload {

	/**
	 * One usable pair.
	 *
	 * @param prompt the human turn
	 * @param promptWords its length in words
	 * @param replyWords the reply's length in words, the request's {@code max_tokens}
	 * @since 0.3
	 */
	public record Pair(String prompt, int promptWords, int replyWords) {
	}

	public ShareGptWorkload {
		pairs = List.copyOf(pairs);
	}

	/**
	 * Reads {@code path}.
	 *
	 * @throws IllegalArgumentException naming the file when it cannot be read, is not a ShareGPT array, or holds no
	 *         usable pair
	 */
	public static ShareGptWorkload load(Path path, long seed) {
		JsonNode root;
		try {
			root = Json.MAPPER.readTree(Files.readAllBytes(path));
		}
		catch (IOException e) {
			throw new IllegalArgumentException("cannot read the ShareGPT file " + path + ": " + e.getMessage(), e);
		}
		if (root == null || !root.isArray()) {
			throw new IllegalArgumentException("the ShareGPT file " + path + " is not a JSON array of {\"conversations\": [...]}");
		}
		List<Pair> pairs = new ArrayList<>();
		int skipped = 0;
		for (JsonNode entry : root) {
			JsonNode turns = entry.path("conversations");
			if (turns.size() < 2) {
				skipped++;
				continue;
			}
			String prompt = turns.get(0).path("value").asText("");
			int promptWords = Words.count(prompt);
			int replyWords = Words.count(turns.get(1).path("value").asText(""));
			if (promptWords < 4 || replyWords < 4 || promptWords > 1024 || promptWords + replyWords > 2048) {
				skipped++;
				continue;
			}
			pairs.add(new Pair(prompt, promptWords, replyWords));
		}
		if (pairs.isEmpty()) {
			throw new IllegalArgumentException("the ShareGPT file " + path + " has no usable conversation (" + skipped
					+ " left out: fewer than 2 turns, a turn under 4 words, a prompt over 1024 or a total over 2048)");
		}
		Collections.shuffle(pairs, new Random(seed));
		return new ShareGptWorkload(path, pairs, skipped, seed);
	}

	@Override
	public String name() {
		return "sharegpt";
	}

	@Override
	public RequestSource requests(String model, boolean stream) {
		return index -> {
			Pair pair = pairs.get(Math.floorMod(index, pairs.size()));
			return Conversation.single(ChatPayload.of(model, ChatPayload.user(pair.prompt()), pair.replyWords(), stream)
					.askingPromptTokens(pair.promptWords()));
		};
	}

	@Override
	public void writeTo(ObjectNode node) {
		node.put("name", name());
		node.put("seed", seed);
		node.put("dataset_path", path.toString());
		node.put("pairs", pairs.size());
		node.put("skipped", skipped);
		node.put("lengths", "words (prompt) and reply words as max_tokens; vLLM counts tokens");
	}

	@Override
	public String describe() {
		return "sharegpt " + path.getFileName() + " (" + pairs.size() + " pairs, seed " + seed + ")";
	}
}
