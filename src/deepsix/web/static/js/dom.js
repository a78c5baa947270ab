// DOM helpers: element building, and updating a region only when its data changed.
//
// The table page is built once; each region (the seats, the trick, the prompt, a side
// panel) is redrawn only when the data it shows changed, and keyboard focus is carried
// over by each control's data-key, so an update never steals focus or moves the page.

export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") {
      for (const [name, data] of Object.entries(value)) {
        if (data !== null && data !== undefined) node.dataset[name] = data;
      }
    } else node.setAttribute(key, value === true ? "" : value);
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** The data-key of the focused control inside `container`, if any. */
function focusedKey(container) {
  const active = document.activeElement;
  if (!active || active === document.body || !container.contains(active)) return null;
  return active.dataset.key || null;
}

/**
 * Redraw `container` with `build()` only if `key` (any JSON-able value) differs from the
 * last one drawn; focus moves to the new control with the same data-key.  Returns whether
 * it redrew.
 */
export function region(container, key, build) {
  const text = JSON.stringify(key);
  if (container.dataset.drawn === text) return false;
  const focused = focusedKey(container);
  const children = build();
  container.replaceChildren();
  append(container, [children]);
  container.dataset.drawn = text;
  if (focused) {
    const again = container.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
    else if (again) container.focus?.({ preventScroll: true });
  }
  return true;
}

/** Force the next `region` call on `container` to redraw. */
export function invalidate(container) {
  delete container.dataset.drawn;
}

export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
