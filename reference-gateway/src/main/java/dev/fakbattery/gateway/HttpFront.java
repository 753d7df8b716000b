package dev.fakbattery.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;

import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.wire.spi.GatewayLimits;

/**
 * The HTTP server in front of the gateway's handlers ({@code --server}). Every front serves the same
 * {@code com.sun.net.httpserver} handlers and filters, so the adjudication code is one code whichever server
 * accepts the connections; only who parses HTTP and runs the handlers changes.
 *
 * @since 0.4
 */
public enum HttpFront {

	/**
	 * The JDK's {@code com.sun.net.httpserver.HttpServer} (default): a dispatcher thread selects ready connections
	 * and hands each request to a new virtual thread.
	 */
	JDK("jdk"),

	/**
	 * Helidon SE 4 WebServer ({@link HelidonServer}): each connection's own virtual thread reads its requests and runs
	 * the handlers.
	 */
	HELIDON("helidon"),

	/**
	 * Netty 4.2 ({@link NettyServer}): event loops parse HTTP and gather each request's body, then the handler runs on a
	 * virtual thread of its own.
	 */
	NETTY("netty");

	/**
	 * The system property naming the front a {@link ReferenceGateway.Builder} starts with (the embedded gateway's, the
	 * module's tests'): {@value}; {@code jdk} when unset.
	 */
	public static final String SERVER_PROPERTY = "reference.gateway.server";

	private final String id;

	HttpFront(String id) {
		this.id = id;
	}

	/** The name on the command line and in artifacts. */
	public String id() {
		return id;
	}

	/** Every front's name, the default first. */
	public static List<String> names() {
		return Arrays.stream(values()).map(HttpFront::id).toList();
	}

	/** The front named {@code id}. @throws IllegalArgumentException naming the choices */
	public static HttpFront parse(String id) {
		return Arrays.stream(values())
				.filter(f -> f.id.equals(id))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("unknown server [" + id + "], use one of " + names()));
	}

	/** The front {@value #SERVER_PROPERTY} names, {@link #JDK} when unset. @throws IllegalArgumentException naming the fix */
	public static HttpFront configured() {
		String name = System.getProperty(SERVER_PROPERTY, JDK.id);
		try {
			return parse(name);
		}
		catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("Unable to parse " + SERVER_PROPERTY + " value [" + name + "]: use one of " + names()
					+ ", e.g. -D" + SERVER_PROPERTY + "=" + HELIDON.id, e);
		}
	}

	/** An unstarted server for {@code address}; {@code limits} are the gateway's own header and body limits. */
	HttpServer create(InetSocketAddress address, int backlog, GatewayLimits limits) throws IOException {
		return switch (this) {
			case JDK -> HttpServer.create(address, backlog);
			case HELIDON -> new HelidonServer(address, backlog, limits.maxHeaderBytes());
			case NETTY -> new NettyServer(address, backlog, limits.maxHeaderBytes(), limits.maxBodyBytes());
		};
	}
}
