package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ServiceLoader;

import dev.fakbattery.gateway.GatewayClient.Answer;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.EmbeddedGatewayProvider;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("embedded gateway provider")
class EmbeddedReferenceGatewayProviderTests {

	@Test
	@DisplayName("the service loader finds it; it starts the reference gateway with the kit policy on a free port")
	void serviceLoaded() {
		EmbeddedGatewayProvider provider = ServiceLoader.load(EmbeddedGatewayProvider.class).findFirst().orElseThrow();
		assertThat(provider).isInstanceOf(EmbeddedReferenceGatewayProvider.class);
		try (UpstreamDouble upstream = UpstreamDouble.start(); GatewayUnderTest gateway = provider.start(upstream.v1(), Dialect.SGLANG)) {
			upstream.chat(UpstreamDouble.fixture("kit/sglang/tool-call-mixed"));
			Answer answer = GatewayClient.chat(gateway.baseUrl(), GatewayClient.request("m", false));

			assertThat(gateway.description()).isEqualTo(HttpFront.configured() == HttpFront.JDK
					? "embedded reference gateway"
					: "embedded reference gateway (server " + HttpFront.configured().id() + ")");
			assertThat(gateway.declaresAdjudicationRecord()).isTrue();
			assertThat(gateway.baseUrl().toString()).matches("http://127\\.0\\.0\\.1:\\d+/v1");
			assertThat(answer.json().at("/adjudication/calls")).hasSize(3);
		}
	}
}
