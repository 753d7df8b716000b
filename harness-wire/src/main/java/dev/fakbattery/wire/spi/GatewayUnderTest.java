package dev.fakbattery.wire.spi;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The gateway the kit and the tax bench talk to: the embedded reference gateway (default), an
 * already running one ({@code gateway.url}) or one the harness starts ({@code gateway.cmd}).
 * Closing it stops what the harness started, and nothing else.
 *
 * @since 0.1
 */
public interface GatewayUnderTest extends AutoCloseable {

	/**
	 * The request header a client sends, with the value {@value #RECORD_REQUESTED}, to get the kit's adjudication
	 * record on the wire: {@value}. Without it the answer is a plain OpenAI answer (a client such as the official
	 * SDKs reads every {@code data:} event as a chunk, whatever its {@code event:} name).
	 */
	String RECORD_HEADER = "X-Adjudication-Record";

	/** The value of {@link #RECORD_HEADER} that asks for the record: {@value}. */
	String RECORD_REQUESTED = "include";

	/** Base URL the client talks to, ending in {@code /v1}. */
	URI baseUrl();

	/** How it was obtained, for artifacts and failure messages. */
	String description();

	/**
	 * Whether the gateway declares the kit's adjudication record format (the reference gateway's
	 * {@code adjudication} extension object and final SSE event, sent when the request carries
	 * {@link #RECORD_HEADER}); rules about the record are skipped, with that reason, for gateways
	 * that do not.
	 */
	boolean declaresAdjudicationRecord();

	/**
	 * The limits and timeout the gateway documents, which the kit's fault rules check; empty when it declares none
	 * (the rules then take them from configuration, or are skipped naming what to set).
	 *
	 * @since 0.3
	 */
	default Optional<GatewayLimits> limits() {
		return Optional.empty();
	}

	/** The gateway's log file when the harness started it as a process. */
	default Optional<Path> log() {
		return Optional.empty();
	}

	@Override
	void close();
}
