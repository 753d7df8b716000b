package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("the request headers a run sends the gateway under test")
class GatewayHeadersTests {

	@Test
	@DisplayName("gateway.headers gives one header a line, and each gateway.header.NAME one more; the names sort, the values are not printed")
	void linesAndPrefixedNames() {
		Map<String, String> values = Map.of("gateway.headers",
				"x-portkey-provider: openai\n\n  x-portkey-custom-host :  http://127.0.0.1:9/v1 ",
				"gateway.header.x-trace", "t-1", "gateway.header.", "ignored", "other.key", "v");
		HarnessConfig config = HarnessConfig.of(name -> Optional.ofNullable(values.get(name)), values::keySet);

		GatewayHeaders headers = GatewayHeaders.of(config, name -> null);

		assertThat(headers.values()).containsOnly(Map.entry("x-portkey-provider", "openai"),
				Map.entry("x-portkey-custom-host", "http://127.0.0.1:9/v1"), Map.entry("x-trace", "t-1"));
		assertThat(headers.names()).containsExactly("x-portkey-custom-host", "x-portkey-provider", "x-trace");
		assertThat(headers).hasToString("request headers x-portkey-custom-host, x-portkey-provider, x-trace");
		assertThat(headers.guard().isEmpty()).as("no credential among them").isTrue();
	}

	@Test
	@DisplayName("{upstream} in a value is the URL of the engine the gateway is in front of, per dialect")
	void upstreamPlaceholder() {
		Map<String, String> values = Map.of("gateway.headers", "x-portkey-custom-host: {upstream}\nx-portkey-provider: openai");
		GatewayHeaders headers = GatewayHeaders.of(HarnessConfig.of(name -> Optional.ofNullable(values.get(name))), name -> null);

		assertThat(headers.values(java.net.URI.create("http://127.0.0.1:18765/v1"))).containsEntry("x-portkey-custom-host",
				"http://127.0.0.1:18765/v1").containsEntry("x-portkey-provider", "openai");
		assertThat(headers.values()).containsEntry("x-portkey-custom-host", "{upstream}");
	}

	@Test
	@DisplayName("no header configured: none, and a lookup that cannot be listed finds no gateway.header.NAME")
	void none() {
		HarnessConfig config = HarnessConfig.of(name -> Optional.of("x").filter(v -> name.equals("gateway.header.x-a")));

		assertThat(GatewayHeaders.of(config, name -> null).isEmpty()).isTrue();
		assertThat(GatewayHeaders.of(config, name -> null)).hasToString("no request headers");
		assertThat(config.prefixed("gateway.header.")).isEmpty();
	}

	@Test
	@DisplayName("{api.key} in a value is the key of api.key.env, and a credential header's value is guarded like the key")
	void apiKeyPlaceholder() {
		Map<String, String> values = Map.of("api.key.env", "MY_KEY", "gateway.header.Authorization", "Bearer {api.key}",
				"gateway.header.x-portkey-provider", "openai");
		HarnessConfig config = HarnessConfig.of(name -> Optional.ofNullable(values.get(name)), values::keySet);

		GatewayHeaders headers = GatewayHeaders.of(config, name -> name.equals("MY_KEY") ? "sk-canary-0123456789" : null);

		assertThat(headers.values()).containsEntry("Authorization", "Bearer sk-canary-0123456789")
				.containsEntry("x-portkey-provider", "openai");
		assertThat(headers.guard().find("a line with Bearer sk-canary-0123456789 in it")).isPresent();
		assertThat(headers.guard().find("openai error: rewrapped")).as("a routing value is no secret").isEmpty();
		assertThat(RunSecrets.of(config, name -> name.equals("MY_KEY") ? "sk-canary-0123456789" : null)
				.find("Bearer sk-canary-0123456789")).isPresent();
	}

	@Test
	@DisplayName("a literal key in a credential header is guarded too, whatever its case")
	void literalCredential() {
		Map<String, String> values = Map.of("gateway.headers", "X-Api-Key: literal-secret-42\nCookie: session=abcdef123");
		HarnessConfig config = HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));

		GatewayHeaders headers = GatewayHeaders.of(config, name -> null);

		assertThat(headers.guard().find("{\"k\":\"literal-secret-42\"}")).isPresent();
		assertThat(headers.guard().find("session=abcdef123")).isPresent();
		assertThat(RunSecrets.of(config, name -> null).find("literal-secret-42")).isPresent();
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = { "x-portkey-provider|false", "Authorization|true", "proxy-authorization|true", "Cookie|true",
		"x-api-key|true", "X-Portkey-Api-Key|true", "x-auth-token|true", "x-client-secret|true", "x-trace-id|false" })
	@DisplayName("which header names carry a credential")
	void credentialNames(String name, boolean credential) {
		assertThat(GatewayHeaders.credential(name)).isEqualTo(credential);
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = {
		"gateway.headers|no colon here|gateway.headers: [no colon here] is not a header; give one `Name: value` per line",
		"gateway.headers|bad name: v|gateway.header.bad name: [bad name] is not a header name",
		"gateway.headers|Host: example|gateway.header.Host: the kit's clients set Host themselves; leave it out",
		"gateway.header.Upgrade|h2c|gateway.header.Upgrade: the kit's clients set Upgrade themselves",
		"gateway.header.Authorization|Bearer {api.key}|gateway.header.Authorization uses {api.key} but api.key.env is not set; set -Dapi.key.env=NAME" })
	@DisplayName("a header the kit cannot send is a misconfiguration naming the parameter and the fix")
	void misconfigured(String key, String value, String message) {
		HarnessConfig config = HarnessConfig.of(name -> Optional.ofNullable(Map.of(key, value).get(name)), () -> Set.of(key));

		assertThatThrownBy(() -> GatewayHeaders.of(config, name -> null)).isInstanceOf(ConfigurationException.class)
				.hasMessageStartingWith(message);
	}

	@Test
	@DisplayName("{api.key} whose variable is unset names the variable and says to export it; a value never holds a line break")
	void unsetKeyAndLineBreak() {
		Map<String, String> values = Map.of("api.key.env", "MY_KEY", "gateway.header.Authorization", "Bearer {api.key}");
		HarnessConfig config = HarnessConfig.of(name -> Optional.ofNullable(values.get(name)), values::keySet);
		assertThatThrownBy(() -> GatewayHeaders.of(config, name -> " ")).isInstanceOf(ConfigurationException.class)
				.hasMessage("gateway.header.Authorization uses {api.key} but the environment variable MY_KEY (api.key.env) is unset or "
						+ "blank; export it");

		Map<String, String> broken = Map.of("gateway.header.x-a", "one\rtwo");
		HarnessConfig lineBreak = HarnessConfig.of(name -> Optional.ofNullable(broken.get(name)), broken::keySet);
		assertThatThrownBy(() -> GatewayHeaders.of(lineBreak, name -> null)).isInstanceOf(ConfigurationException.class)
				.hasMessage("gateway.header.x-a: a header value holds no line break; give it on one line");
	}

	@Test
	@DisplayName("a self-test's hermetic parameters blank the outer build's gateway.header.NAME properties")
	void hermetic() {
		System.setProperty("gateway.header.x-hermetic-test", "outer");
		try {
			assertThat(HarnessConfig.hermeticParameters(Map.of())).containsEntry("gateway.header.x-hermetic-test", "")
					.containsEntry("gateway.headers", "");
		}
		finally {
			System.clearProperty("gateway.header.x-hermetic-test");
		}
	}
}
