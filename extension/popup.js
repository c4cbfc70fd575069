// Popup: shows the bridge status, the driven tab and the pairing token; sets the port.
const $ = (id) => document.getElementById(id);

function render(status) {
  const state = $("state");
  state.textContent = status.state +
    (status.state === "connected" && status.unpaired
      ? " (unpaired: any program on this computer could pose as the SDK)"
      : "") +
    (status.error ? ` (${status.error})` : "") +
    ` — ws://127.0.0.1:${status.port}`;
  state.className = status.error?.startsWith("refused") ? "refused" : status.state;
  $("tab").textContent = status.tabId === undefined
    ? "none"
    : `#${status.tabId} ${status.tabTitle ?? ""} ${status.tabUrl ?? ""}`;
}

const initial = await chrome.runtime.sendMessage({ type: "getStatus" });
render(initial.status);
$("token").textContent = initial.token;
$("port").value = initial.port;
$("unpaired").checked = initial.allowUnpaired === true;
$("unpaired").addEventListener("change", async () => {
  await chrome.storage.local.set({ allowUnpaired: $("unpaired").checked });
});
$("save").addEventListener("click", async () => {
  const port = Number($("port").value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return;
  await chrome.storage.local.set({ port });
  await chrome.runtime.sendMessage({ type: "reconnect" });
});
chrome.runtime.onMessage.addListener((message) => {
  if (message?.type === "status") render(message.status);
});
