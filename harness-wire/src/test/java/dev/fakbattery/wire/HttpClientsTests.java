package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.Executor;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("HttpClients: the shapes the battery's clients are built in")
class HttpClientsTests {

	private static final Executor INLINE = Runnable::run;

	@Test
	@DisplayName("HTTP/1.1 with a connect timeout, no redirects, the JDK's executor")
	void http11() {
		try (HttpClient client = HttpClients.http11(Duration.ofSeconds(7))) {
			assertThat(client.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
			assertThat(client.connectTimeout()).contains(Duration.ofSeconds(7));
			assertThat(client.followRedirects()).isEqualTo(HttpClient.Redirect.NEVER);
			assertThat(client.executor()).isEmpty();
		}
	}

	@Test
	@DisplayName("on the caller's executor, and without a connect timeout when none is given")
	void executorAndNoTimeout() {
		try (HttpClient client = HttpClients.http11(Duration.ofSeconds(3), INLINE); HttpClient bare = HttpClients.http11()) {
			assertThat(client.executor()).containsSame(INLINE);
			assertThat(client.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
			assertThat(bare.connectTimeout()).isEmpty();
			assertThat(bare.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
		}
	}

	@Test
	@DisplayName("negotiating keeps the JDK's default version and still follows no redirect")
	void negotiating() {
		try (HttpClient client = HttpClients.negotiating(Duration.ofSeconds(1)); HttpClient jdk = HttpClient.newHttpClient()) {
			assertThat(client.version()).isEqualTo(jdk.version());
			assertThat(client.connectTimeout()).contains(Duration.ofSeconds(1));
			assertThat(client.followRedirects()).isEqualTo(HttpClient.Redirect.NEVER);
		}
	}

	@Test
	@DisplayName("withOwnPool copies version, executor, connect timeout and redirects into a new client")
	void withOwnPool() {
		try (HttpClient client = HttpClients.http11(Duration.ofSeconds(4), INLINE); HttpClient copy = HttpClients.withOwnPool(client)) {
			assertThat(copy).isNotSameAs(client);
			assertThat(copy.version()).isEqualTo(client.version());
			assertThat(copy.executor()).containsSame(INLINE);
			assertThat(copy.connectTimeout()).contains(Duration.ofSeconds(4));
			assertThat(copy.followRedirects()).isEqualTo(HttpClient.Redirect.NEVER);
		}
	}
}
