package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

// runs alone (junit-platform.properties runs classes concurrently): it sets reference.gateway.server, which every embedded gateway started meanwhile would read
@DisplayName("HTTP front: named on the command line, chosen by a system property for the embedded gateway")
@Isolated
class HttpFrontTests {

	private final String before = System.getProperty(HttpFront.SERVER_PROPERTY);

	@AfterEach
	void restore() {
		if (before == null) {
			System.clearProperty(HttpFront.SERVER_PROPERTY);
		}
		else {
			System.setProperty(HttpFront.SERVER_PROPERTY, before);
		}
	}

	@Test
	@DisplayName("jdk, helidon and netty, the default first")
	void names() {
		assertThat(HttpFront.names()).containsExactly("jdk", "helidon", "netty");
		assertThat(HttpFront.parse("netty")).isEqualTo(HttpFront.NETTY);
		assertThat(HttpFront.parse("helidon")).isEqualTo(HttpFront.HELIDON);
	}

	@Test
	@DisplayName("reference.gateway.server picks the front a builder starts with; jdk when unset")
	void configured() {
		System.clearProperty(HttpFront.SERVER_PROPERTY);
		assertThat(HttpFront.configured()).isEqualTo(HttpFront.JDK);

		System.setProperty(HttpFront.SERVER_PROPERTY, "helidon");
		try (ReferenceGateway gateway = ReferenceGateway.builder().upstream(java.net.URI.create("http://127.0.0.1:1/v1")).build()) {
			assertThat(gateway.front()).isEqualTo(HttpFront.HELIDON);
			assertThat(gateway.description()).isEqualTo("embedded reference gateway (server helidon)");
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(value = HttpFront.class, names = { "HELIDON", "NETTY" })
	@DisplayName("a front on a port already taken fails to start as the JDK one does, naming the address")
	void portTaken(HttpFront front) {
		java.net.URI upstream = java.net.URI.create("http://127.0.0.1:1/v1");
		try (ReferenceGateway first = ReferenceGateway.builder().upstream(upstream).front(front).build().start()) {
			ReferenceGateway second = ReferenceGateway.builder().upstream(upstream).front(front).port(first.port()).build();

			org.assertj.core.api.Assertions.assertThatThrownBy(second::start)
					.isInstanceOf(java.io.UncheckedIOException.class)
					.hasMessageStartingWith("reference gateway cannot listen on 127.0.0.1:" + first.port() + ": ");
		}
	}

	@Test
	@DisplayName("an unknown front names the property, the value and the fix")
	void unknown() {
		System.setProperty(HttpFront.SERVER_PROPERTY, "tomcat");

		assertThatIllegalArgumentException().isThrownBy(HttpFront::configured)
				.withMessage("Unable to parse reference.gateway.server value [tomcat]: use one of [jdk, helidon, netty], e.g. "
						+ "-Dreference.gateway.server=helidon");
	}
}
