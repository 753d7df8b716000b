package dev.fakbattery.bench.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.bench.llamacpp.LlamaCppSetup;
import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.wire.Json;

/**
 * The llama.cpp engine image of {@code -Pllamacpp,container}, built locally from what {@code -Pllamacpp} prepared in
 * its folder ({@code target/llamacpp}): {@code llama-server} with the shared libraries {@code ldd} names and the
 * loader, the tiny GGUF under {@value ContainerRecipe#MODELS} and an empty {@value ContainerRecipe#SLOT_DIR},
 * {@code FROM scratch}, tagged {@value #REPOSITORY}{@code :<12 hex of the content's SHA-256>} ({@link RootfsImage}),
 * reused when that tag is on the engine. It writes {@code container.properties} ({@code engine.image=<tag>}, read by
 * the tests' JVM) and {@code image.json} (tag, image id, content hash, files).
 *
 * @since 0.7
 */
public final class LlamaCppImage {

	/** The repository of the image. */
	public static final String REPOSITORY = "fak-battery/llamacpp";

	private LlamaCppImage() {
	}

	/** {@code LlamaCppImage LLAMACPP_DIR}: the folder {@link LlamaCppSetup} filled. */
	public static void main(String[] args) throws IOException {
		if (args.length != 1 || args[0].isBlank() || args[0].contains("${")) {
			throw new IllegalArgumentException("usage: LlamaCppImage LLAMACPP_DIR (the container profile builds on -Pllamacpp: "
					+ "run ./mvnw verify -Pllamacpp,container)");
		}
		Path dir = Path.of(args[0]).toAbsolutePath();
		if (!DockerCheck.testcontainers().available()) {
			throw new IllegalStateException("-Pcontainer builds the llama.cpp image and starts it with Testcontainers, but no "
					+ "Docker engine was found (DOCKER_HOST, /var/run/docker.sock, ~/.testcontainers.properties). Fix: start "
					+ "dockerd, or run -Pllamacpp alone (the engine as a process)");
		}
		long started = System.nanoTime();
		RootfsImage image = image(dir);
		RootfsImage.Built built = image.ensure(DockerImages.client(), Duration.ofMinutes(10));
		ObjectNode info = Json.MAPPER.createObjectNode();
		info.put("tag", built.tag())
				.put("image_id", built.imageId())
				.put("content_sha256", image.contentHash())
				.put("reused", built.reused())
				.put("dockerfile", image.dockerfile());
		ObjectNode files = info.putObject("files");
		image.files().forEach((inImage, host) -> files.put(inImage, host.toString()));
		ArtifactFiles.writeJson(dir.resolve("image.json"), info);
		Files.writeString(dir.resolve("container.properties"), HarnessConstants.ENGINE_IMAGE + "=" + built.tag() + "\n");
		System.out.println("[container] " + (built.reused() ? "reused " : "built ") + built.tag() + " (" + built.imageId() + ", "
				+ image.files().size() + " files) in " + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
	}

	/** The image of the folder: its {@code llama-server} (link followed) and {@link LlamaCppSetup#MODEL_FILE}. */
	static RootfsImage image(Path dir) {
		Path server = dir.resolve("llama-server");
		Path model = dir.resolve(LlamaCppSetup.MODEL_FILE);
		for (Path needed : List.of(server, model)) {
			if (!Files.isRegularFile(needed)) {
				throw new IllegalStateException(needed + " is missing: the image is built from what -Pllamacpp prepares. Fix: run "
						+ "./mvnw verify -Pllamacpp,container (both profiles)");
			}
		}
		return RootfsImage.builder(REPOSITORY)
				.executable("/llama-server", server)
				.file(ContainerRecipe.MODELS + "/" + LlamaCppSetup.MODEL_FILE, model)
				.folder(ContainerRecipe.SLOT_DIR)
				.folder("/tmp")
				.entrypoint("/llama-server")
				.build();
	}
}
