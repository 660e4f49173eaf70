// The Step pane (SPEC §8): a run recorded by POST /api/trace, walked forward and back. Each
// step shows where the run is (highlighted in the editor), the call stack, every frame's
// variables with arrays as rows of boxes, and the output so far. app.js asks for the trace
// and hands the answer here.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var trace = null, current = 0, mark = null, outputBytes = null;

  function showTrace(answer) {
    trace = answer;
    outputBytes = new TextEncoder().encode(answer.stdout || "");
    var count = (answer.steps || []).length;
    $("step-slider").max = String(Math.max(0, count - 1));
    var notes = [];
    if (answer.diagnostics && answer.diagnostics.length) notes.push("The program has errors; see the editor.");
    else if (!count) notes.push("The run took no steps.");
    if (answer.truncated) notes.push("The run went on past " + count + " steps; the trace stops there.");
    if (answer.timedOut) notes.push("The run ran out of time.");
    if (answer.exitCode && answer.stderr) notes.push("It ended with: " + answer.stderr.trim());
    $("step-summary").textContent = notes.join(" ");
    go(0);
  }

  function go(index) {
    var steps = (trace && trace.steps) || [];
    current = Math.max(0, Math.min(index, steps.length - 1));
    $("step-slider").value = String(current);
    $("step-back").disabled = current <= 0;
    $("step-forward").disabled = current >= steps.length - 1;
    if (mark) { mark.clear(); mark = null; }
    ["step-stack", "step-frames", "step-output"].forEach(function (id) { $(id).textContent = ""; });
    if (!steps.length) { $("step-position").textContent = ""; return; }
    var step = steps[current], previous = current > 0 ? steps[current - 1] : null;
    var innermost = step.frames[step.frames.length - 1];
    var what = step.event === "call" ? "call of " + innermost.function :
      step.event === "return" ? "return from " + innermost.function : "line " + step.line;
    $("step-position").textContent = "Step " + (current + 1) + " of " + steps.length + ": " + what;
    highlight(step);
    showStack(step);
    showFrames(step, previous);
    $("step-output").textContent = new TextDecoder().decode(outputBytes.slice(0, step.stdoutLength));
  }

  function highlight(step) {
    var playground = window.playground;
    if (!playground) return;
    var from = playground.position(step.line, step.column), to = playground.position(step.endLine, step.endColumn);
    if (CodeMirror.cmpPos(from, to) >= 0) to = CodeMirror.Pos(from.line, from.ch + 1);
    mark = playground.editor.markText(from, to, { className: "step-current" });
    playground.editor.scrollIntoView(from, 40);
  }

  // The frames, innermost last as the trace has them, the current one marked.
  function showStack(step) {
    step.frames.forEach(function (frame, index) {
      var item = document.createElement("li");
      item.textContent = frame.function + " — line " + frame.line;
      if (index === step.frames.length - 1) { item.className = "current"; item.setAttribute("aria-current", "step"); }
      $("step-stack").appendChild(item);
    });
  }

  // Each frame's locals, innermost first, then the globals; numbers that changed since the
  // step before are marked, and the array elements just read or written (`accesses`, named
  // as the innermost frame sees them: its locals, else a global).
  function showFrames(step, previous) {
    var frames = step.frames.slice().reverse();
    var before = previous ? previous.frames.slice().reverse() : [];
    var marks = { local: {}, global: {} };
    (step.accesses || []).forEach(function (access) {
      var scope = access.array in frames[0].locals ? marks.local : marks.global;
      (scope[access.array] = scope[access.array] || {})[access.index] = access.kind;
    });
    frames.forEach(function (frame, index) {
      var earlier = before[index] && before[index].function === frame.function ? before[index].locals : null;
      showVariables(frame.function + " (line " + frame.line + ")", frame.locals, earlier, index === 0 ? marks.local : {});
    });
    if (Object.keys(step.globals).length) {
      showVariables("globals", step.globals, previous ? previous.globals : null, marks.global);
    }
  }

  function showVariables(title, values, earlier, marked) {
    var box = document.createElement("div"), heading = document.createElement("h3");
    box.className = "frame";
    heading.textContent = title;
    box.appendChild(heading);
    var names = Object.keys(values);
    if (!names.length) {
      var none = document.createElement("div");
      none.className = "variable";
      none.textContent = "(no variables)";
      box.appendChild(none);
    }
    names.forEach(function (name) {
      var value = values[name], old = earlier ? earlier[name] : undefined;
      var row = document.createElement("div"), label = document.createElement("span");
      row.className = "variable";
      label.className = "name";
      label.textContent = name + " = ";
      row.appendChild(label);
      if (Array.isArray(value)) {
        row.appendChild(cells(name, value, marked[name] || {}));
      } else {
        row.appendChild(document.createTextNode(String(value)));
        if (old !== undefined && old !== value) row.classList.add("changed");
      }
      box.appendChild(row);
    });
    $("step-frames").appendChild(box);
  }

  // An array as a row of boxes, each with its index; the elements just read or written
  // are marked.
  function cells(name, elements, marked) {
    var row = document.createElement("span");
    row.className = "cells";
    row.setAttribute("role", "list");
    row.setAttribute("aria-label", "Array " + name);
    elements.forEach(function (element, index) {
      var cell = document.createElement("span"), label = document.createElement("span");
      cell.className = "cell";
      cell.setAttribute("role", "listitem");
      label.className = "index";
      label.textContent = String(index);
      cell.appendChild(label);
      cell.appendChild(document.createTextNode(String(element)));
      if (marked[index]) {
        cell.classList.add(marked[index] === "write" ? "written" : "read");
        cell.title = name + "[" + index + "] was just " + (marked[index] === "write" ? "written" : "read");
      }
      row.appendChild(cell);
    });
    return row;
  }

  $("step-back").addEventListener("click", function () { go(current - 1); });
  $("step-forward").addEventListener("click", function () { go(current + 1); });
  $("step-slider").addEventListener("input", function () { go(Number(this.value)); });
  $("pane-step").addEventListener("keydown", function (event) {
    if (event.target.id === "step-slider") return;  // the slider moves by itself
    if (event.key === "ArrowLeft") { go(current - 1); event.preventDefault(); }
    if (event.key === "ArrowRight") { go(current + 1); event.preventDefault(); }
  });

  window.showTrace = showTrace;
  // Leaving the pane leaves the editor unmarked.
  window.clearStepMark = function () { if (mark) { mark.clear(); mark = null; } };
})();
