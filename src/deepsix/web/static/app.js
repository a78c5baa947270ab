// The Deep Six browser client: plain ES modules, no build step (see js/).
//
//   js/connection.js  the WebSocket: hello, reconnection, moves tagged with their seq
//   js/model.js       what the page knows: the latest view and each hand's story
//   js/table.js       the table page: regions updated only when their data changed
//   js/felt.js        the seats and the trick (play order, leader, winning card)
//   js/hand.js        your cards: one click to play (two taps on a phone), picks to pass
//   js/prompt.js      what you can do now; choose-then-confirm for invitation, passes, meld
//   js/panels.js      the bar at a glance, auction grid, passes, melds, score sheet, log
//   js/dialogs.js     end-of-hand summary, last trick, rules
//   js/replay.js      the replay page: a finished game step by step (deepsix.svg pictures)
//   js/lobby.js       the lobby
//   js/seats.js       seat keys kept in this browser, never in the address bar
//   js/words.js       plain-language events and refusals

import { lobby } from "./js/lobby.js";
import { ReplayPage } from "./js/replay.js";
import { TablePage } from "./js/table.js";

const root = document.getElementById("app");
const table = location.pathname.match(/^\/table\/([A-Za-z0-9_-]{1,40})$/);
const replay = location.pathname.match(/^\/replay\/([A-Za-z0-9_-]{1,40})$/);
if (table) window.deepsixTable = new TablePage(table[1], root);
else if (replay) window.deepsixReplay = new ReplayPage(replay[1], root);
else lobby(root);
