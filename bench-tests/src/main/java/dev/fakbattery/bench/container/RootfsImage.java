package dev.fakbattery.bench.container;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.BuildImageResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * An image built locally, {@code FROM scratch}, from files of this machine: executables with every shared library
 * {@code ldd} names (and the loader) at the paths it names, plain files and empty folders. Nothing is pulled: the
 * build context is a tar of a {@code Dockerfile} and {@code rootfs/}, sent to the Docker engine with
 * {@code pull=false}.
 *
 * <p>The tag is {@code REPOSITORY:<first 12 hex of the SHA-256 of the content>}: every file's path, mode and bytes,
 * the folders, the entrypoint and the environment. The same content gives the same tag, so an image already on the
 * engine under it is reused, never rebuilt; a changed binary or model gives a new tag, never {@code :latest}.
 *
 * <h2>Example</h2>
 * <pre>
 * RootfsImage image = RootfsImage.builder("fak-battery/llamacpp")
 *         .executable("/llama-server", Path.of("target/llamacpp/llama-server"))
 *         .file("/models/tiny-random-llama.gguf", model)
 *         .folder("/slots")
 *         .entrypoint("/llama-server")
 *         .build();
 * image.tag();                           // fak-battery/llamacpp:3f1c0e9a2b7d
 * image.ensure(docker, Duration.ofMinutes(5)); // builds it unless the tag is there
 * </pre>
 *
 * @since 0.7
 */
public final class RootfsImage {

	/** Label on every image this class builds: the content hash it was tagged with. */
	public static final String CONTENT_LABEL = "dev.fakbattery.rootfs.sha256";

	private static final Pattern LDD_LINE = Pattern.compile("^\\s*(\\S+)(?:\\s+=>\\s+(\\S+))?\\s+\\(0x[0-9a-f]+\\)\\s*$");

	private final String repository;
	private final Map<String, Path> files;
	private final Set<String> folders;
	private final List<String> entrypoint;
	private final Map<String, String> env;
	private final String contentHash;

	private RootfsImage(Builder builder) {
		this.repository = builder.repository;
		this.files = Map.copyOf(builder.files);
		this.folders = Set.copyOf(builder.folders);
		this.entrypoint = List.copyOf(builder.entrypoint);
		this.env = Map.copyOf(builder.env);
		this.contentHash = hash(builder.files, builder.folders, entrypoint, builder.env);
	}

	/** A builder for an image tagged in {@code repository} (for example {@code fak-battery/llamacpp}). */
	public static Builder builder(String repository) {
		return new Builder(repository);
	}

	/** {@code REPOSITORY:<12 hex of the content hash>}. */
	public String tag() {
		return repository + ":" + contentHash.substring(0, 12);
	}

	/** The SHA-256 of the content, hex. */
	public String contentHash() {
		return contentHash;
	}

	/** The image's files: path in the image to the file of this machine it copies. */
	public Map<String, Path> files() {
		return new TreeMap<>(files);
	}

	/** The Dockerfile of the build context. */
	public String dockerfile() {
		StringBuilder text = new StringBuilder("FROM scratch\nCOPY rootfs/ /\n");
		new TreeMap<>(env).forEach((name, value) -> text.append("ENV ").append(name).append('=').append(value).append('\n'));
		text.append("LABEL ").append(CONTENT_LABEL).append('=').append(contentHash).append('\n');
		text.append("ENTRYPOINT [");
		for (int i = 0; i < entrypoint.size(); i++) {
			text.append(i == 0 ? "" : ", ").append('"').append(entrypoint.get(i).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
		}
		return text.append("]\n").toString();
	}

	/**
	 * The image on {@code docker}: the one tagged {@link #tag()} when it is there, else built now (no pull).
	 *
	 * @param timeout how long the build may take
	 * @throws IllegalStateException when the build fails or takes longer, naming the tag and the cause
	 */
	public Built ensure(DockerClient docker, Duration timeout) {
		try {
			return new Built(tag(), docker.inspectImageCmd(tag()).exec().getId(), true);
		}
		catch (NotFoundException absent) {
			// built below
		}
		byte[] context = context();
		try (InputStream in = new java.io.ByteArrayInputStream(context);
				BuildImageResultCallback callback = docker.buildImageCmd(in)
						.withTags(Set.of(tag()))
						.withPull(false)
						.withRemove(true)
						.exec(new BuildImageResultCallback())) {
			String id = callback.awaitImageId(timeout.toSeconds(), TimeUnit.SECONDS);
			return new Built(tag(), docker.inspectImageCmd(id).exec().getId(), false);
		}
		catch (IOException | RuntimeException e) {
			throw new IllegalStateException("could not build image " + tag() + " (" + context.length + " bytes of context, FROM scratch, "
					+ "no pull) within " + timeout.toSeconds() + " s: " + e.getMessage(), e);
		}
	}

	/** The build context: {@code Dockerfile} and {@code rootfs/}, as a tar. */
	byte[] context() {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes)) {
			tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
			tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
			byte[] dockerfile = dockerfile().getBytes(StandardCharsets.UTF_8);
			TarArchiveEntry entry = new TarArchiveEntry("Dockerfile");
			entry.setSize(dockerfile.length);
			tar.putArchiveEntry(entry);
			tar.write(dockerfile);
			tar.closeArchiveEntry();
			Set<String> parents = new java.util.TreeSet<>(folders);
			files.keySet().forEach(path -> parents.addAll(parentsOf(path)));
			folders.forEach(path -> parents.addAll(parentsOf(path)));
			for (String folder : parents) {
				TarArchiveEntry dir = new TarArchiveEntry("rootfs" + folder + "/");
				dir.setMode(040755);
				tar.putArchiveEntry(dir);
				tar.closeArchiveEntry();
			}
			for (Map.Entry<String, Path> file : new TreeMap<>(files).entrySet()) {
				Path source = file.getValue();
				TarArchiveEntry item = new TarArchiveEntry("rootfs" + file.getKey());
				item.setSize(Files.size(source));
				item.setMode(mode(source));
				tar.putArchiveEntry(item);
				Files.copy(source, tar);
				tar.closeArchiveEntry();
			}
			tar.finish();
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not write the build context of " + tag() + ": " + e.getMessage(), e);
		}
		return bytes.toByteArray();
	}

	private static List<String> parentsOf(String path) {
		List<String> parents = new ArrayList<>();
		for (int slash = path.indexOf('/', 1); slash > 0; slash = path.indexOf('/', slash + 1)) {
			parents.add(path.substring(0, slash));
		}
		return parents;
	}

	private static int mode(Path file) {
		return Files.isExecutable(file) ? 0100755 : 0100644;
	}

	private static String hash(Map<String, Path> files, Set<String> folders, List<String> entrypoint, Map<String, String> env) {
		MessageDigest digest = sha256();
		try {
			for (Map.Entry<String, Path> file : new TreeMap<>(files).entrySet()) {
				digest.update(("file " + file.getKey() + " " + Integer.toOctalString(mode(file.getValue())) + " "
						+ Files.size(file.getValue()) + "\n").getBytes(StandardCharsets.UTF_8));
				try (OutputStream sink = new java.security.DigestOutputStream(OutputStream.nullOutputStream(), digest)) {
					Files.copy(file.getValue(), sink);
				}
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not read a file of the image: " + e.getMessage(), e);
		}
		new java.util.TreeSet<>(folders).forEach(folder -> digest.update(("folder " + folder + "\n").getBytes(StandardCharsets.UTF_8)));
		new TreeMap<>(env).forEach((name, value) -> digest.update(("env " + name + "=" + value + "\n").getBytes(StandardCharsets.UTF_8)));
		digest.update(("entrypoint " + String.join("\u0000", entrypoint) + "\n").getBytes(StandardCharsets.UTF_8));
		return HexFormat.of().formatHex(digest.digest());
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException(e);
		}
	}

	/**
	 * The shared libraries {@code ldd} names for {@code binary}, the loader included, at the paths it names; empty
	 * for a static binary.
	 *
	 * @throws IllegalStateException when {@code ldd} cannot run or a library is {@code not found}
	 */
	static List<Path> sharedLibraries(Path binary) {
		String output;
		int exit;
		try {
			Process ldd = new ProcessBuilder("ldd", binary.toString()).redirectErrorStream(true).start();
			output = new String(ldd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!ldd.waitFor(60, TimeUnit.SECONDS)) {
				ldd.destroyForcibly();
				throw new IllegalStateException("ldd " + binary + " did not finish within 60 s");
			}
			exit = ldd.exitValue();
		}
		catch (IOException e) {
			throw new IllegalStateException("could not run ldd " + binary + " (" + e.getMessage() + "): the image needs the "
					+ "shared libraries it names. Fix: install ldd (glibc's libc-bin) or use a statically linked binary", e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while running ldd " + binary, e);
		}
		return parseLdd(binary, output, exit);
	}

	/** {@link #sharedLibraries(Path)} over {@code ldd}'s output and exit status. */
	static List<Path> parseLdd(Path binary, String output, int exit) {
		if (output.contains("statically linked") || output.contains("not a dynamic executable")) {
			return List.of();
		}
		if (exit != 0) {
			throw new IllegalStateException("ldd " + binary + " failed (exit " + exit + "): " + output.strip());
		}
		Set<Path> libraries = new LinkedHashSet<>();
		for (String line : output.lines().toList()) {
			if (line.contains("=> not found")) {
				throw new IllegalStateException("ldd " + binary + ": " + line.strip() + ". Fix: install the library, or use a "
						+ "binary whose libraries are all on this machine");
			}
			Matcher match = LDD_LINE.matcher(line);
			if (!match.matches()) {
				continue;
			}
			String path = match.group(2) != null ? match.group(2) : match.group(1);
			if (path.startsWith("/")) {
				libraries.add(Path.of(path));
			}
		}
		return List.copyOf(libraries);
	}

	/** An image that is on the engine: its tag, its id ({@code sha256:...}) and whether it was there already. */
	public record Built(String tag, String imageId, boolean reused) {
	}

	/** Collects the files of a {@link RootfsImage}. */
	public static final class Builder {

		private final String repository;
		private final Map<String, Path> files = new TreeMap<>();
		private final Set<String> folders = new java.util.TreeSet<>();
		private final Map<String, String> env = new TreeMap<>();
		private List<String> entrypoint = List.of();

		private Builder(String repository) {
			this.repository = Objects.requireNonNull(repository);
		}

		/**
		 * {@code host} at {@code inImage} (symbolic links followed), with every shared library {@code ldd} names at
		 * its own path, and {@code LD_LIBRARY_PATH} set to their folders.
		 */
		public Builder executable(String inImage, Path host) {
			file(inImage, host);
			Set<String> dirs = new LinkedHashSet<>();
			for (Path library : sharedLibraries(host)) {
				file(library.toString(), library);
				dirs.add(library.getParent().toString());
			}
			if (!dirs.isEmpty()) {
				String existing = env.get("LD_LIBRARY_PATH");
				Set<String> all = new java.util.TreeSet<>(dirs);
				if (existing != null) {
					all.addAll(List.of(existing.split(":")));
				}
				env.put("LD_LIBRARY_PATH", String.join(":", all));
			}
			return this;
		}

		/** The file {@code host} (its bytes, symbolic links followed) at {@code inImage}, an absolute path. */
		public Builder file(String inImage, Path host) {
			Path real;
			try {
				real = host.toRealPath();
			}
			catch (IOException e) {
				throw new UncheckedIOException("image file " + inImage + ": " + host + " cannot be read: " + e.getMessage(), e);
			}
			if (!Files.isRegularFile(real)) {
				throw new IllegalArgumentException("image file " + inImage + ": " + host + " is not a regular file");
			}
			files.put(absolute(inImage), real);
			return this;
		}

		/** An empty folder at {@code inImage}. */
		public Builder folder(String inImage) {
			folders.add(absolute(inImage));
			return this;
		}

		/** The process the image runs: its executable's path in the image, then fixed arguments. */
		public Builder entrypoint(String... words) {
			entrypoint = List.of(words);
			return this;
		}

		public RootfsImage build() {
			if (entrypoint.isEmpty()) {
				throw new IllegalStateException("image " + repository + " has no entrypoint");
			}
			return new RootfsImage(this);
		}

		private static String absolute(String path) {
			if (!path.startsWith("/") || path.endsWith("/") || path.contains("//") || path.contains("/../")) {
				throw new IllegalArgumentException("not an absolute path in the image: " + path);
			}
			return path;
		}
	}
}
