package dev.fakbattery.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reaper's own decisions, in this JVM: what it stops when its input ends, what it leaves alone, and the request
 * it sends a Docker engine. {@link ManagedProcessShutdownTests} runs it for real under a SIGKILLed JVM.
 */
@DisplayName("Reaper: at the end of its input it stops what is still watched, and only that")
@Timeout(60)
// waits on processes and servers it starts: beside the other classes (junit-platform.properties)
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
class ReaperTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("a watched server and its child are stopped; a released one and a pid whose start time differs are not")
	void stopsOnlyWhatIsStillWatched() throws Exception {
		Process watched = sleeper();
		Process released = sleeper();
		Process reused = sleeper();
		try {
			String input = "+p " + watched.pid() + " " + start(watched) + "\n" //
					+ "+p " + released.pid() + " " + start(released) + "\n" //
					+ "+p " + reused.pid() + " 1\n" // a start time that is not this process's: its pid was reused
					+ "-p " + released.pid() + "\n" //
					+ "? an instruction from a newer harness\n";
			ProcessHandle child = awaitChild(watched);
			List<String> stopped = Reaper.reap(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
			assertThat(stopped).as("what the reaper reports stopped")
					.containsExactlyInAnyOrder("process " + watched.pid(), "process " + child.pid());
			assertThat(watched.waitFor(10, TimeUnit.SECONDS)).as("the watched server stopped").isTrue();
			assertThat(child.onExit().get(10, TimeUnit.SECONDS).isAlive()).as("its child").isFalse();
			assertThat(released.isAlive()).as("the released server").isTrue();
			assertThat(reused.isAlive()).as("the process with another start time").isTrue();
		}
		finally {
			for (Process process : List.of(watched, released, reused)) {
				process.descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly();
			}
		}
	}

	@ParameterizedTest(name = "over {0}")
	@ValueSource(strings = { "unix", "tcp" })
	@DisplayName("watched containers are listed by their label and each removed with DELETE /containers/ID?force=true&v=true")
	void removesLabelledContainers(String scheme) throws Exception {
		String id = "0123456789ab".repeat(5) + "cdef";
		boolean unix = scheme.equals("unix");
		try (ServerSocketChannel engine = unix
				? ServerSocketChannel.open(StandardProtocolFamily.UNIX)
				: ServerSocketChannel.open(StandardProtocolFamily.INET)) {
			engine.bind(unix ? UnixDomainSocketAddress.of(dir.resolve("docker.sock")) : new InetSocketAddress("127.0.0.1", 0));
			String host = unix
					? "unix://" + dir.resolve("docker.sock")
					: "tcp://127.0.0.1:" + ((InetSocketAddress) engine.getLocalAddress()).getPort();
			CompletableFuture<List<String>> requests = CompletableFuture.supplyAsync(() -> {
				List<String> lines = new ArrayList<>();
				for (int i = 0; i < 2; i++) {
					try (SocketChannel connection = engine.accept()) {
						BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(connection),
								StandardCharsets.US_ASCII));
						String line = in.readLine();
						lines.add(line);
						while (!in.readLine().isEmpty()) {
							// the headers
						}
						String answer = line.startsWith("GET")
								? "HTTP/1.0 200 OK\r\n\r\n[{\"Id\":\"" + id + "\",\"Names\":[\"/e\"]}]"
								: "HTTP/1.0 204 No Content\r\n\r\n";
						connection.write(ByteBuffer.wrap(answer.getBytes(StandardCharsets.US_ASCII)));
					}
					catch (java.io.IOException e) {
						lines.add(e.toString());
					}
				}
				return lines;
			});
			String input = "+c dev.fakbattery.start=s1 " + host + "\n+c dev.fakbattery.start=s2 " + host
					+ "\n-c dev.fakbattery.start=s2\n";
			List<String> stopped = Reaper.reap(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
			assertThat(requests.get(10, TimeUnit.SECONDS)).as("the requests the engine got")
					.containsExactly(
							"GET /containers/json?all=true&filters=%7B%22label%22%3A%5B%22dev.fakbattery.start%3Ds1%22%5D%7D HTTP/1.0",
							"DELETE /containers/" + id + "?force=true&v=true HTTP/1.0");
			assertThat(stopped).containsExactly("container 0123456789ab: HTTP/1.0 204 No Content");
		}
	}

	@Test
	@DisplayName("a Docker host it cannot reach, or does not speak to, is reported, not thrown")
	void unreachableDockerIsReported() {
		assertThat(Reaper.removeContainers(URI.create("unix://" + dir.resolve("absent.sock")), "k=v"))
				.singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
				.startsWith("containers k=v: not removed: ");
		assertThat(Reaper.removeContainers(URI.create("npipe:////./pipe/docker_engine"), "k=v"))
				.singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
				.contains("the reaper speaks to unix:// and tcp:// Docker hosts, not npipe");
	}

	private static Process sleeper() throws Exception {
		return new ProcessBuilder("/bin/sh", "-c", "sleep 300; true").start();
	}

	private static String start(Process process) {
		return Long.toString(process.toHandle().info().startInstant().orElseThrow().toEpochMilli());
	}

	private static ProcessHandle awaitChild(Process process) throws InterruptedException {
		for (int i = 0; i < 200; i++) {
			var child = process.children().findFirst();
			if (child.isPresent()) {
				return child.get();
			}
			Thread.sleep(25);
		}
		throw new AssertionError("the wrapper never started its sleep");
	}
}
