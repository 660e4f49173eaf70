// Draws the syntax tree as a picture. The server sends `kaleidoscope ast`'s text, where each
// node is one line and its depth is the width of the connectors before it ("|-", "`-", "| ");
// this file rebuilds the tree from that text and lays it out: leaves side by side, each
// parent centred over its children.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var NODE_HEIGHT = 22, LEVEL_GAP = 44, SIBLING_GAP = 12, CHAR_WIDTH = 7.3, PADDING = 8;

  // The roots (one per item) of the tree the dump describes.
  function parse(text) {
    var roots = [], stack = [];
    text.split("\n").forEach(function (line) {
      if (!line.trim()) return;
      var match = /^((?:[|`]-|\| | {2})*)(.*)$/.exec(line);
      var depth = match[1].length / 2;
      var label = match[2], location = "";
      var at = /\s<(\d+:\d+)>$/.exec(label);
      if (at) { location = at[1]; label = label.slice(0, at.index); }
      var node = { label: label, location: location, children: [] };
      stack.length = depth;
      if (depth === 0) roots.push(node); else if (stack[depth - 1]) stack[depth - 1].children.push(node);
      stack[depth] = node;
    });
    return roots;
  }

  // Gives every node x (its centre), y and width; returns the subtree's right edge.
  function layout(node, left, depth) {
    node.width = Math.max(24, node.label.length * CHAR_WIDTH + 2 * PADDING);
    node.y = depth * LEVEL_GAP + 4;
    if (!node.children.length) { node.x = left + node.width / 2; return left + node.width; }
    var right = left;
    node.children.forEach(function (child, index) {
      right = layout(child, index ? right + SIBLING_GAP : right, depth + 1);
    });
    var first = node.children[0].x, last = node.children[node.children.length - 1].x;
    node.x = (first + last) / 2;
    if (node.x - node.width / 2 < left) { shift(node, left - (node.x - node.width / 2)); right += left - (node.x - node.width / 2); }
    return Math.max(right, node.x + node.width / 2);
  }

  function shift(node, by) { node.x += by; node.children.forEach(function (child) { shift(child, by); }); }

  function depthOf(node) { return 1 + node.children.reduce(function (most, child) { return Math.max(most, depthOf(child)); }, 0); }

  function element(name, attributes, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attributes).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    parent.appendChild(node);
    return node;
  }

  function draw(node, svg) {
    node.children.forEach(function (child) {
      element("line", { x1: node.x, y1: node.y + NODE_HEIGHT, x2: child.x, y2: child.y }, svg);
      draw(child, svg);
    });
    var group = element("g", node.location ? { "data-source-line": node.location.split(":")[0] } : {}, svg);
    // A node links to the tutorial chapter that introduces its kind.
    var documentation = window.nodeDocumentation ? window.nodeDocumentation(node.label) : null;
    var title = node.label + (node.location ? " at " + node.location : "");
    if (documentation) {
      title += "\n" + documentation.summary.replace(/`/g, "") + " (tutorial chapter " + documentation.chapter + ")";
      group = element("a", { href: documentation.url, target: "_blank", rel: "noopener" }, group);
    }
    element("title", {}, group).textContent = title;
    element("rect", { x: node.x - node.width / 2, y: node.y, width: node.width, height: NODE_HEIGHT, rx: 4 }, group);
    var text = element("text", { x: node.x, y: node.y + 15, "text-anchor": "middle" }, group);
    text.textContent = node.label;
  }

  // Replaces the contents of `container` with one picture per item of the dump `text`.
  window.drawSyntaxTree = function (container, text) {
    container.textContent = "";
    parse(text).forEach(function (root) {
      var width = layout(root, 4, 0) + 4;
      var height = depthOf(root) * LEVEL_GAP;
      var svg = element("svg", { width: width, height: height, viewBox: "0 0 " + width + " " + height, role: "img" }, container);
      svg.setAttribute("aria-label", "Syntax tree of " + root.label);
      draw(root, svg);
    });
  };
})();
