package dev.fakbattery.gateway.policy;

/**
 * What the gateway does with a proposed tool call.
 *
 * @since 0.1
 */
public enum Action {
	/** The call goes out unchanged. */
	ALLOW,
	/** The call is dropped: not one byte of it reaches the client. */
	DENY,
	/** The call goes out with new or redacted arguments. */
	TRANSFORM
}
