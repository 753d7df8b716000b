package dev.fakbattery.gateway;

import java.net.URI;

import dev.fakbattery.gateway.policy.PolicyLoader;
import dev.fakbattery.wire.Dialect;

/** An upstream double with a reference gateway in front of it (kit policy), closed together. */
final class Rig implements AutoCloseable {

	final UpstreamDouble upstream;

	final ReferenceGateway gateway;

	private Rig(HttpFront front, String engine) {
		upstream = UpstreamDouble.start();
		gateway = ReferenceGateway.builder()
				.front(front)
				.upstream(upstream.v1())
				.policy(PolicyLoader.kitConvention())
				.engine(Dialect.parse(engine))
				.port(0)
				.build()
				.start();
	}

	/** A rig with the JDK front (the classes that are not {@link EveryFront}). */
	static Rig start(String engine) {
		return new Rig(HttpFront.JDK, engine);
	}

	static Rig start(HttpFront front, String engine) {
		return new Rig(front, engine);
	}

	/** The gateway's {@code /v1}. */
	URI base() {
		return gateway.baseUrl();
	}

	GatewayClient.Answer chat(String body, String... headers) {
		return GatewayClient.chat(base(), body, headers);
	}

	@Override
	public void close() {
		gateway.close();
		upstream.close();
	}
}
