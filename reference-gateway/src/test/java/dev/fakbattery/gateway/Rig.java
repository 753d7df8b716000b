package dev.fakbattery.gateway;

import java.net.URI;

import dev.fakbattery.gateway.policy.PolicyLoader;
import dev.fakbattery.wire.Dialect;

/** An upstream double with a reference gateway in front of it (kit policy), closed together. */
final class Rig implements AutoCloseable {

	final UpstreamDouble upstream;

	final ReferenceGateway gateway;

	private Rig(String engine) {
		upstream = UpstreamDouble.start();
		gateway = ReferenceGateway.builder()
				.upstream(upstream.v1())
				.policy(PolicyLoader.kitConvention())
				.engine(Dialect.parse(engine))
				.port(0)
				.build()
				.start();
	}

	static Rig start(String engine) {
		return new Rig(engine);
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
