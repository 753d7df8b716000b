package dev.fakbattery.bench.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The profile's setup with a fake llama-server, a fake llama.cpp source and fake build scripts; and the real script's tool check. */
@DisplayName("llamacpp profile setup")
class LlamaCppSetupTests {

	@TempDir
	Path dir;

	Path bin;

	Path source;

	Path out;

	@BeforeEach
	void fakes() throws IOException {
		bin = Files.createDirectories(dir.resolve("bin"));
		executable(bin.resolve("llama-server"), "echo 'starting...'; echo 'version: 9.9-test (build 1, commit abc1234)' >&2; "
				+ "echo 'built with cc for Linux' >&2");
		source = Files.createDirectories(dir.resolve("llama.cpp/models/templates"));
		source = dir.resolve("llama.cpp");
		Files.move(TinyLlamaTests.vocab(dir), source.resolve(LlamaCppSetup.VOCAB));
		Files.writeString(source.resolve(LlamaCppSetup.TEMPLATE), "{{ messages }}");
		out = dir.resolve("target/llamacpp");
	}

	static Path executable(Path file, String body) throws IOException {
		Files.writeString(file, "#!/bin/sh\n" + body + "\n");
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
		return file;
	}

	private Path script(String body) throws IOException {
		return executable(dir.resolve("build.sh"), body);
	}

	@Test
	@DisplayName("llama-server on PATH: linked, the model written, slots made, llamacpp.json written; the build script is not run")
	void serverOnPath() throws IOException {
		Path script = script("echo must not run >&2; exit 9");
		ObjectNode info = LlamaCppSetup.prepare(out, script, Optional.empty(), Optional.of(source.toString()), "/nowhere:" + bin);
		assertThat(Files.readSymbolicLink(out.resolve("llama-server"))).isEqualTo(bin.resolve("llama-server"));
		assertThat(GgufReader.read(out.resolve(LlamaCppSetup.MODEL_FILE)).require("general.architecture").value()).isEqualTo("llama");
		assertThat(out.resolve("slots")).isDirectory();
		assertThat(info.path("server_version").asText()).isEqualTo("version: 9.9-test (build 1, commit abc1234); built with cc for Linux");
		assertThat(info.path("model").path("sha256").asText()).isEqualTo(LlamaCppSetup.sha256(out.resolve(LlamaCppSetup.MODEL_FILE)));
		assertThat(dev.fakbattery.wire.Json.MAPPER.readTree(out.resolve("llamacpp.json").toFile()).toString()).isEqualTo(info.toString());
		assertThat(info.path("model").path("weights").asText()).isEqualTo("random, seed 1, not a trained model");
	}

	@Test
	@DisplayName("nothing on PATH and no source: the build script builds the server and fetches the source, and is run again idempotently")
	void builtByTheScript() throws IOException {
		Path script = script("if [ \"$1\" = --source-only ]; then echo '[fetching]' >&2; echo " + source + "; else echo '[building]' >&2; "
				+ "echo " + bin.resolve("llama-server") + "; fi");
		LlamaCppSetup.prepare(out, script, Optional.empty(), Optional.empty(), "");
		LlamaCppSetup.prepare(out, script, Optional.empty(), Optional.empty(), "");
		assertThat(Files.readSymbolicLink(out.resolve("llama-server"))).isEqualTo(bin.resolve("llama-server"));
	}

	@Test
	@DisplayName("a build script that fails fails the setup with its message (the missing tools) and the fix")
	void missingTools() throws IOException {
		Path script = script(
				"echo 'cannot build llama-server: missing cmake, ninja or make (Debian: apt-get install -y cmake ninja-build)' >&2; exit 3");
		assertThatThrownBy(() -> LlamaCppSetup.prepare(out, script, Optional.empty(), Optional.of(source.toString()), ""))
				.isInstanceOf(IllegalStateException.class)
				.hasMessage("bash " + script + " failed (exit 3): cannot build llama-server: missing cmake, ninja or make (Debian: apt-get "
						+ "install -y cmake ninja-build)\nFix: install what it names, or pass -Dllamacpp.server=<llama-server> and "
						+ "-Dllamacpp.source=<llama.cpp source>");
	}

	@Test
	@DisplayName("-Dllamacpp.server that is not an executable file is refused, naming it and the fix")
	void badServer() throws IOException {
		Path script = script("exit 9");
		assertThatThrownBy(() -> LlamaCppSetup.prepare(out, script, Optional.of("/no/llama-server"), Optional.of(source.toString()), ""))
				.isInstanceOf(IllegalStateException.class)
				.hasMessage(
						"llamacpp.server [/no/llama-server] is not an executable file. Fix: pass -Dllamacpp.server=<path to llama-server>, "
								+ "or remove it to use llama-server on PATH or build one with " + script);
	}

	@Test
	@DisplayName("-Dllamacpp.source without the qwen2 vocabulary is refused, naming the file")
	void badSource() throws IOException {
		Path script = script("exit 9");
		assertThatThrownBy(() -> LlamaCppSetup.prepare(out, script, Optional.empty(), Optional.of(dir.toString()), bin.toString()))
				.isInstanceOf(IllegalStateException.class)
				.hasMessageStartingWith(
						"the llama.cpp source " + dir + " has no models/ggml-vocab-qwen2.gguf. Fix: pass -Dllamacpp.source=");
	}

	@Test
	@DisplayName("the real build script names every missing tool and exits 3 before touching anything")
	void realScriptNamesMissingTools() throws Exception {
		Path script = Path.of(System.getProperty("harness.root.dir", ".."), "tools/llamacpp/build-llama-server.sh").toAbsolutePath();
		Path cache = dir.resolve("cache");
		Path empty = Files.createDirectories(dir.resolve("empty-path"));
		for (String args : new String[]{ "", "--source-only" }) {
			ProcessBuilder builder = new ProcessBuilder("/bin/bash", script.toString());
			if (!args.isEmpty()) {
				builder.command().add(args);
			}
			builder.command().add(cache.toString());
			builder.environment().put("PATH", empty.toString());
			Process process = builder.redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes()).strip();
			assertThat(process.waitFor()).isEqualTo(3);
			assertThat(output).isEqualTo(args.isEmpty()
					? "cannot build llama-server: missing npm, git, cmake, g++ or clang++, ninja or make (Debian: apt-get install -y npm git cmake g++ ninja-build)"
					: "cannot fetch the llama.cpp source: missing npm, git (Debian: apt-get install -y npm git cmake g++ ninja-build)");
		}
		assertThat(cache).doesNotExist();
	}
}
