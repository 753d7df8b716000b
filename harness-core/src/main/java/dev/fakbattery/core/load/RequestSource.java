package dev.fakbattery.core.load;

import java.util.Objects;

import org.apiguardian.api.API;

/**
 * Where a load run takes its requests from: conversation {@code i} of a workload. The same index gives the same
 * requests (workloads are seeded), so two arms of a comparison send the same conversations.
 *
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
@FunctionalInterface
public interface RequestSource {

	/** Conversation {@code index}; warm-up conversations use indices from {@link #WARMUP_OFFSET} on. */
	Conversation conversation(int index);

	/** Where warm-up indices start, so warm-up requests are never the measured ones. */
	int WARMUP_OFFSET = 1_000_000;

	/** Every conversation is the one request {@code payload}. */
	static RequestSource fixed(ChatPayload payload) {
		Objects.requireNonNull(payload, "payload");
		return index -> Conversation.single(payload);
	}
}
