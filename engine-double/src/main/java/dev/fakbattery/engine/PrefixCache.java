package dev.fakbattery.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The double's prefix cache, kept the way vLLM's automatic prefix caching counts: the prompt is cut into blocks of
 * {@value #BLOCK_TOKENS} tokens (words here), each block named by a hash of itself and every block before it; a request
 * hits the leading blocks already cached, then caches all of its own (least recently used blocks go first, beyond
 * {@value #CAPACITY_BLOCKS}). Queries and hits count in tokens, as {@code vllm:prefix_cache_queries_total} and
 * {@code vllm:prefix_cache_hits_total} do; a cached token costs no prefill time. The cache resets endpoints empty it.
 *
 * @since 0.3
 */
final class PrefixCache {

	/** Tokens per cache block (vLLM's default block size). */
	static final int BLOCK_TOKENS = 16;

	/** Blocks kept. */
	static final int CAPACITY_BLOCKS = 1 << 16;

	final LongAdder queries = new LongAdder();

	final LongAdder hits = new LongAdder();

	private final Map<Long, Boolean> blocks = new LinkedHashMap<>(1024, 0.75f, true) {
		@Override
		protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
			return size() > CAPACITY_BLOCKS;
		}
	};

	/** Looks the prompt's blocks up and caches them; returns the prompt tokens served from the cache. */
	synchronized int admit(long[] blockHashes, int promptTokens) {
		int cached = 0;
		boolean leading = true;
		for (long hash : blockHashes) {
			boolean hit = blocks.get(hash) != null;
			if (leading && hit) {
				cached += BLOCK_TOKENS;
			}
			else {
				leading = false;
				blocks.put(hash, Boolean.TRUE);
			}
		}
		queries.add(promptTokens);
		hits.add(cached);
		return cached;
	}

	/** Forgets every block ({@code /reset_prefix_cache}, {@code /flush_cache}). */
	synchronized void reset() {
		blocks.clear();
	}

	/** The chained block hashes of a prompt's words: only whole blocks, each hash covering everything before it. */
	static long[] blockHashes(Iterable<String> words, int count) {
		long[] hashes = new long[count / BLOCK_TOKENS];
		long hash = 0xcbf29ce484222325L;
		int i = 0;
		for (String word : words) {
			if (i / BLOCK_TOKENS >= hashes.length) {
				break;
			}
			hash = (hash ^ word.hashCode()) * 0x100000001b3L;
			if (++i % BLOCK_TOKENS == 0) {
				hashes[i / BLOCK_TOKENS - 1] = hash;
			}
		}
		return hashes;
	}
}
