package com.example.gateway;

import java.net.URI;
import java.util.List;

import dev.fakbattery.conformance.wire.WireVerification;
import dev.fakbattery.gateway.ReferenceGateway;
import dev.fakbattery.gateway.policy.PolicyLoader;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;

/**
 * The kit's wire rules against "my gateway": subclass {@link WireVerification}, start the gateway in front of the
 * upstream the kit hands over, and return it. Here the gateway is the repository's reference gateway, started
 * in-process with the kit's policy convention (allow_* allowed, deny_* denied, transform_* redacted).
 */
@DisplayName("my gateway: the kit's wire rules")
class MyGatewayWireVerificationTests extends WireVerification {

	@Override
	protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
		return ReferenceGateway.builder().upstream(upstream).engine(engine).policy(PolicyLoader.kitConvention()).port(0).build().start();
	}

	/** The dialects my gateway serves; the kit has vLLM and SGLang fixtures. One keeps the example quick. */
	@Override
	protected List<Dialect> engines() {
		return List.of(Dialect.VLLM);
	}
}
