package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.fakbattery.gateway.GatewayClient.Answer;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayLimits;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Main: command line")
class MainArgumentsTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("--upstream and --port; policy, engine, bind and limits optional (kit convention, vllm, loopback, defaults)")
	void minimal() {
		MainArguments arguments = MainArguments.parse("--upstream", "http://127.0.0.1:8000/v1", "--port", "0");

		assertThat(arguments).isEqualTo(new MainArguments(URI.create("http://127.0.0.1:8000/v1"), 0, null, Dialect.VLLM, false, false,
				InetAddress.getLoopbackAddress(), ReferenceGateway.DEFAULT_LIMITS, false));
	}

	@Test
	@DisplayName("the documented defaults: upstream timeout 300 s, body 8 MiB, headers 32 KiB, event 4 MiB")
	void documentedDefaults() {
		assertThat(ReferenceGateway.DEFAULT_LIMITS).isEqualTo(new GatewayLimits(Duration.ofSeconds(300), 8_388_608, 32_768, 4_194_304));
	}

	@Test
	@DisplayName("every flag, also as --flag=value")
	void everyFlag() throws IOException {
		Path policy = Files.writeString(dir.resolve("policy.yaml"), "default: allow\n");
		MainArguments arguments = MainArguments.parse("--upstream=http://h:1/v1", "--port", "8080", "--policy", policy.toString(),
				"--engine=SGLang", "--record-on-wire", "--bind", "127.0.0.2", "--upstream-timeout-ms=1500", "--max-body-bytes", "1000",
				"--max-header-bytes", "2000", "--max-event-bytes=3000", "--log-bodies", "--server=helidon");

		assertThat(arguments).isEqualTo(new MainArguments(URI.create("http://h:1/v1"), 8080, policy, Dialect.SGLANG, false, true,
				InetAddress.getByName("127.0.0.2"), new GatewayLimits(Duration.ofMillis(1500), 1000, 2000, 3000), true, HttpFront.HELIDON));
	}

	@ParameterizedTest(name = "{1}")
	@CsvSource(delimiter = '|', value = {
		"--port 1                               | --upstream is required",
		"--upstream http://h/v1                 | --port is required",
		"--upstream http://h/v1 --port          | --port needs a value",
		"--upstream --port 1                    | --upstream needs a value",
		"--upstream http://h/v1 --port x        | --port [x] must be a number 0-65535",
		"--upstream http://h/v1 --port 70000    | --port [70000] must be a number 0-65535",
		"--upstream ftp://h/v1 --port 1         | --upstream [ftp://h/v1] must be an http(s) URL with a host",
		"--upstream http://h/v1 --port 1 --engine tgi | --engine [tgi] must be one of vllm, sglang, llamacpp",
		"--upstream http://h/v1 --port 1 --policy /no/such.yaml | --policy [/no/such.yaml] is not a readable file",
		"--upstream http://h/v1 --port 1 --port 2 | --port given twice",
		"--upstream http://h/v1 --port 1 --record-on-wire --record-on-wire | --record-on-wire given twice",
		"--upstream http://h/v1 --port 1 --verbose | unknown flag [--verbose]",
		"--upstream http://h/v1 --port 1 --bind example.org | --bind [example.org] must be an IP address, e.g. 127.0.0.1",
		"--upstream http://h/v1 --port 1 --upstream-timeout-ms 0 | --upstream-timeout-ms [0] must be a whole number 1-2147483647",
		"--upstream http://h/v1 --port 1 --max-body-bytes lots | --max-body-bytes [lots] must be a whole number 1-9223372036854775807",
		"--upstream http://h/v1 --port 1 --max-header-bytes -1 | --max-header-bytes [-1] must be a whole number 1-2147483647",
		"--upstream http://h/v1 --port 1 --max-event-bytes 1 --max-event-bytes 2 | --max-event-bytes given twice",
		"--upstream http://h/v1 --port 1 --log-bodies --log-bodies | --log-bodies given twice",
		"--upstream http://h/v1 --port 1 --server tomcat | --server [tomcat] must be one of [jdk, helidon, netty]",
		"--upstream http://h/v1 --port 1 --server jdk --server jdk | --server given twice" })
	@DisplayName("a bad command line names the flag")
	void badArguments(String line, String message) {
		assertThatThrownBy(() -> MainArguments.parse(line.trim().split("\\s+")))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessage(message);
	}

	@Test
	@DisplayName("start prints the error and the usage to stderr and starts nothing")
	void startWithBadArguments() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();

		ReferenceGateway gateway = Main.start(new String[]{ "--port", "abc", "--upstream", "http://h/v1" }, print(out), print(err));

		assertThat(gateway).isNull();
		assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
		assertThat(err.toString(StandardCharsets.UTF_8))
				.isEqualTo("reference-gateway: --port [abc] must be a number 0-65535\n" + MainArguments.USAGE);
	}

	@Test
	@DisplayName("--help prints the usage to stdout")
	void help() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();

		assertThat(Main.start(new String[]{ "--help" }, print(out), print(new ByteArrayOutputStream()))).isNull();
		assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(MainArguments.USAGE);
	}

	@Test
	@DisplayName("a policy file that does not load is reported like a bad flag")
	void badPolicy() throws IOException {
		Path policy = Files.writeString(dir.resolve("bad.yaml"), "default: maybe\n");
		ByteArrayOutputStream err = new ByteArrayOutputStream();

		assertThat(Main.start(new String[]{ "--upstream", "http://h/v1", "--port", "0", "--policy", policy.toString() },
				print(new ByteArrayOutputStream()), print(err))).isNull();
		assertThat(err.toString(StandardCharsets.UTF_8))
				.startsWith("reference-gateway: policy " + policy + ": default [maybe] must be allow or deny\n");
	}

	@Test
	@DisplayName("start announces the base URL and serves with the given policy and engine")
	void startServes() throws IOException {
		Path policy = Files.writeString(dir.resolve("allow-all.yaml"), "default: allow\n");
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (UpstreamDouble upstream = UpstreamDouble.start()) {
			upstream.chat(UpstreamDouble.fixture("kit/sglang/tool-call-deny-only"));
			ReferenceGateway gateway = Main.start(new String[]{ "--upstream", upstream.v1().toString(), "--port", "0", "--policy",
				policy.toString(), "--engine", "sglang" }, print(out), print(new ByteArrayOutputStream()));
			try (gateway) {
				Answer answer = GatewayClient.chat(gateway.baseUrl(), GatewayClient.request("m", false));

				assertThat(Awaiting.until(() -> out.toString(StandardCharsets.UTF_8).contains("adjudication"), Duration.ofSeconds(5)))
						.isTrue();
				assertThat(out.toString(StandardCharsets.UTF_8))
						.startsWith("reference gateway listening on " + gateway.baseUrl() + " (server jdk, upstream "
								+ upstream.v1() + ", engine sglang, policy " + policy + ", record on request, upstream timeout 300000 ms,"
								+ " max body 8388608 B, max headers 32768 B, max event 4194304 B)\n"
								+ "adjudication {\"request_id\":null,\"calls\":[{\"id\":\"call_");
				assertThat(answer.json().at("/choices/0/message/tool_calls/0/function/name").textValue()).isEqualTo("deny_write");
				assertThat(answer.json().at("/adjudication/calls/0/rule").textValue()).isEqualTo("<default>");
			}
		}
	}

	private static PrintStream print(ByteArrayOutputStream bytes) {
		return new PrintStream(bytes, true, StandardCharsets.UTF_8);
	}
}
