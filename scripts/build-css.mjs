// Builds the reduced gov.br Design System stylesheets the portal serves (issue 15), at install time
// (`make assets`); nothing it writes is committed.
//
// The design system's core.min.css is 720 kB, and 93 % of it styles components the portal never
// uses. PurgeCSS (npm registry) keeps only the rules whose classes, ids and elements appear in the
// portal's templates, Python code and JavaScript, in two files:
//
//   govbr-critical.css  what the public pages and the page frame (header, menu, footer, forms,
//                       messages) use: loaded from <head>, small enough not to block for long;
//   govbr-rest.css      the rules only signed-in pages add (tables, tabs, staff screens): loaded
//                       at the end of <body>, so it never delays the first paint, and it needs no
//                       JavaScript (a plain <link> in the body; base.html links portal.css again
//                       after it so the portal's own rules keep the last word).
//
// Files are written next to the copy of core.min.css and swapped in with a rename, so a page
// served while the build runs never gets half a stylesheet.
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postcss from "postcss";
import { PurgeCSS } from "purgecss";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "node_modules/@govbr-ds/core/dist/core.min.css");
const outDir = path.join(root, "portal/static/vendor/govbr-ds");

// Classes the design system's own JavaScript or the browser add at run time, which no template
// spells out: state classes of components (open menus, active tabs, shown tooltips), the DS focus
// ring, and the high-contrast switch on <body> (set from a cookie).
const safelist = {
  standard: ["active", "show", "open", "expanded", "is-active", "is-open", "focus-visible",
    "contraste", "sr-only", "disabled", "hidden"],
  deep: [],
  greedy: [/^is-/, /^has-/],
};

// Pages anyone can open without signing in, and the frame every page shares: their rules are
// the critical ones.
const publicContent = [
  "portal/templates/base.html",
  "portal/templates/_macros/**/*.html",
  "portal/templates/main/**/*.html",
  "portal/templates/errors/**/*.html",
  "portal/templates/auth/**/*.html",
  "portal/templates/adoption/_macros.html",
  "portal/templates/adoption/search*.html",
  "portal/templates/adoption/listing.html",
  "portal/templates/adoption/_*.html",
  "portal/templates/animals/public*.html",
  "portal/forms.py",
];
const allContent = [
  "portal/templates/**/*.html",
  "portal/static/**/*.js", // the portal's own scripts; vendor/ is skipped below
  "portal/**/*.py",
];

async function purge(css, content) {
  const [result] = await new PurgeCSS().purge({
    content: content.map((glob) => path.join(root, glob)),
    css: [{ raw: css }],
    skippedContentGlobs: ["**/static/vendor/**", "**/node_modules/**"],
    safelist,
    keyframes: true,
    fontFace: true,
    variables: true,
  });
  return result.css;
}

async function writeAtomically(name, text) {
  const target = path.join(outDir, name);
  const tmp = `${target}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, target);
  return text.length;
}

// The rules of `full` that `critical` does not have. Both come from the same source, so a kept rule
// is the same text in both; the rules inside @media/@supports blocks are compared one by one.
const GROUPS = new Set(["media", "supports", "container", "layer"]);
const isGroup = (node) => node.type === "atrule" && GROUPS.has(node.name) && node.nodes;

function difference(fullCss, criticalCss) {
  const seen = new Set();
  const collect = (parent, prefix) => parent.each((node) => {
    if (isGroup(node)) collect(node, `${prefix}@${node.name} ${node.params}|`);
    else seen.add(prefix + node.toString());
  });
  collect(postcss.parse(criticalCss), "");
  const out = postcss.parse(fullCss);
  const prune = (parent, prefix) => parent.each((node) => {
    if (isGroup(node)) {
      prune(node, `${prefix}@${node.name} ${node.params}|`);
      if (!node.nodes.length) node.remove();
    } else if (seen.has(prefix + node.toString())) node.remove();
  });
  prune(out, "");
  return out.toString();
}

const css = await readFile(source, "utf8");
const full = await purge(css, allContent);
const critical = await purge(css, publicContent);
const rest = difference(full, critical);
const sizes = {
  "govbr-critical.css": await writeAtomically("govbr-critical.css", critical),
  "govbr-rest.css": await writeAtomically("govbr-rest.css", rest),
};
console.log(`gov.br DS: ${css.length} bytes -> ` +
  Object.entries(sizes).map(([n, s]) => `${n} ${s}`).join(", "));
