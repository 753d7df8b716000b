package dev.fakbattery.bench.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.commonmark.ext.heading.anchor.IdGenerator;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.SourceSpan;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * Finds the relative links of a tree's Markdown files that lead nowhere: a file or folder that does not exist, or a
 * {@code #anchor} that no heading of the target Markdown file produces (anchors as GitHub writes them: lower case,
 * punctuation dropped, spaces as hyphens, {@code -1}, {@code -2} for repeats). Links with a scheme ({@code https:},
 * {@code mailto:}) are not followed. Code spans and code blocks hold no links, as CommonMark reads them.
 */
final class DocLinks {

	/** Folders never scanned: build output, VCS data, and the git-ignored outputs runs write (generated, not docs). */
	static final Set<String> SKIPPED = Set.of(".git", "target", "node_modules", "experiments/embedded", "experiments/node",
			"experiments/llamacpp", "experiments/history", "experiments/baselines", "reports/allure", "reports/allure-self-tests",
			"reports/compare");

	private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

	private final Parser parser = Parser.builder().includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES).build();

	private final Map<Path, Set<String>> anchors = new HashMap<>();

	private DocLinks() {
	}

	/**
	 * Every broken relative link under {@code root}, one line each: {@code FILE:LINE: link 'TARGET': WHAT IS MISSING}.
	 */
	static List<String> broken(Path root) {
		DocLinks links = new DocLinks();
		List<String> problems = new ArrayList<>();
		for (Path file : markdownFiles(root)) {
			problems.addAll(links.check(root, file));
		}
		return problems;
	}

	static List<Path> markdownFiles(Path root) {
		List<Path> files = new ArrayList<>();
		try {
			Files.walkFileTree(root, new SimpleFileVisitor<>() {
				@Override
				public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
					String relative = root.relativize(dir).toString().replace('\\', '/');
					return !dir.equals(root) && (SKIPPED.contains(relative) || SKIPPED.contains(dir.getFileName().toString()))
							? FileVisitResult.SKIP_SUBTREE
							: FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
					if (file.getFileName().toString().endsWith(".md")) {
						files.add(file);
					}
					return FileVisitResult.CONTINUE;
				}
			});
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		files.sort(null);
		return files;
	}

	private List<String> check(Path root, Path file) {
		List<String> problems = new ArrayList<>();
		Node document = parser.parse(read(file));
		document.accept(new AbstractVisitor() {
			@Override
			public void visit(Link link) {
				problems.addAll(problem(root, file, link, link.getDestination()));
				visitChildren(link);
			}

			@Override
			public void visit(Image image) {
				problems.addAll(problem(root, file, image, image.getDestination()));
				visitChildren(image);
			}
		});
		return problems;
	}

	private List<String> problem(Path root, Path file, Node node, String destination) {
		if (destination.isEmpty() || SCHEME.matcher(destination).find()) {
			return List.of();
		}
		int hash = destination.indexOf('#');
		String pathPart = hash < 0 ? destination : destination.substring(0, hash);
		String anchor = hash < 0 ? "" : destination.substring(hash + 1);
		Path target = pathPart.isEmpty()
				? file
				: file.getParent().resolve(URLDecoder.decode(pathPart.replace("+", "%2B"), StandardCharsets.UTF_8)).normalize();
		String where = root.relativize(file) + ":" + line(node) + ": link '" + destination + "': ";
		if (!Files.exists(target)) {
			return List.of(where + "no file or folder " + root.relativize(target.toAbsolutePath().normalize()));
		}
		if (!anchor.isEmpty() && Files.isRegularFile(target) && target.getFileName().toString().endsWith(".md")
				&& !anchorsOf(target).contains(anchor)) {
			return List.of(where + "no heading of " + root.relativize(target) + " has the anchor #" + anchor);
		}
		return List.of();
	}

	private Set<String> anchorsOf(Path file) {
		return anchors.computeIfAbsent(file.toAbsolutePath().normalize(), f -> {
			Set<String> ids = new HashSet<>();
			IdGenerator generator = IdGenerator.builder().build();
			parser.parse(read(f)).accept(new AbstractVisitor() {
				@Override
				public void visit(Heading heading) {
					ids.add(generator.generateId(text(heading)));
				}
			});
			return ids;
		});
	}

	private static String text(Node node) {
		StringBuilder text = new StringBuilder();
		for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
			if (child instanceof Text t) {
				text.append(t.getLiteral());
			}
			else if (child instanceof Code c) {
				text.append(c.getLiteral());
			}
			else {
				text.append(text(child));
			}
		}
		return text.toString();
	}

	private static int line(Node node) {
		for (Node n = node; n != null; n = n.getParent()) {
			List<SourceSpan> spans = n.getSourceSpans();
			if (!spans.isEmpty()) {
				return spans.get(0).getLineIndex() + 1;
			}
		}
		return 0;
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}
}
