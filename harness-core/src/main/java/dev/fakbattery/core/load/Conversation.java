package dev.fakbattery.core.load;

import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * The requests of one conversation, sent one after another on one connection's worth of time: the first, then each
 * next one built from the answer before it (an agentic loop answers the proposed tool calls with tool results). A
 * single-turn workload's conversation is one request. Not thread-safe: one conversation is driven by one thread.
 *
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public interface Conversation {

	/** The first request. */
	ChatPayload first();

	/** The request after {@code answer} (a successful one); empty when the conversation is over. */
	Optional<ChatPayload> next(RequestOutcome answer);

	/**
	 * Whether the conversation is known to end after its first request, whatever the answer: then that request's
	 * outcome is the conversation's. False unless the conversation says so.
	 *
	 * @since 0.10
	 */
	default boolean singleTurn() {
		return false;
	}

	/** A conversation of one request. */
	static Conversation single(ChatPayload payload) {
		Objects.requireNonNull(payload, "payload");
		return new Conversation() {
			@Override
			public ChatPayload first() {
				return payload;
			}

			@Override
			public boolean singleTurn() {
				return true;
			}

			@Override
			public Optional<ChatPayload> next(RequestOutcome answer) {
				return Optional.empty();
			}
		};
	}
}
