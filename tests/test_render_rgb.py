"""render_mode="rgb_array" (dimsum.render.raster, the `render` extra): a frame is the acting
seat's picture, ``state.to_svg(seat)`` rasterized, as an (H, W, 3) uint8 array of one fixed
shape; Gymnasium's RecordVideo writes a video of an episode; without the extra, a clear error."""

import subprocess
import sys

import numpy as np
import pytest

from needs import need_module

gymnasium = need_module("gymnasium")
need_module("resvg_py")
need_module("PIL")

import dimsum  # noqa: E402
from dimsum.gymnasium import ENV_IDS  # noqa: E402
from dimsum.render.raster import FRAME_SHAPE, state_to_rgb, svg_to_rgb  # noqa: E402

GAMES = dimsum.games()


@pytest.mark.parametrize("name", GAMES)
def test_a_gymnasium_frame_is_the_learners_picture_only(name):
    env = gymnasium.make(ENV_IDS[name], render_mode="rgb_array", players=3, learner_seat=2)
    env.reset(seed=4)
    frame = env.render()
    assert frame.shape == (*FRAME_SHAPE, 3) and frame.dtype == np.uint8
    state = env.unwrapped.state
    assert np.array_equal(frame, state_to_rgb(state, 2))
    if dimsum.game_info(name).information == "imperfect":  # the whole table shows hidden things
        assert not np.array_equal(frame, state_to_rgb(state, None))
    # (in a perfect-information game the two pictures differ only in their captions' text, which a
    # rasterizer that finds no font draws as nothing)


@pytest.mark.parametrize("name", GAMES)
def test_a_pettingzoo_frame_is_the_selected_agents_picture(name):
    from dimsum.pettingzoo import env as make_env

    need_module("pettingzoo")
    env = make_env(name, render_mode="rgb_array", players=3)
    env.reset(seed=6)
    seat = int(env.agent_selection.split("_")[1])
    frame = env.render()
    assert frame.shape == (*FRAME_SHAPE, 3) and frame.dtype == np.uint8
    assert np.array_equal(frame, state_to_rgb(env.state, seat))


def test_frames_keep_one_shape_as_the_picture_grows_and_the_picture_is_scaled_to_fit():
    game = dimsum.make("yum_cha", players=6)  # taller than the frame: scaled down
    state = game.new_state(1)
    own = svg_to_rgb(state.to_svg(0), shape=None)
    assert own.shape[0] > FRAME_SHAPE[0]
    assert svg_to_rgb(state.to_svg(0)).shape == (*FRAME_SHAPE, 3)
    with pytest.raises(ValueError, match="not an SVG picture"):
        svg_to_rgb("<p>hello</p>")


@pytest.mark.filterwarnings("ignore:.*Overwriting existing videos")  # tmp_path exists already
def test_record_video_writes_a_video_of_an_episode(tmp_path):
    need_module("moviepy")
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(gymnasium.make(ENV_IDS["nice_buns"], render_mode="rgb_array", players=2, max_steps=10),
                      video_folder=str(tmp_path), name_prefix="nice_buns", disable_logger=True)
    observation, _ = env.reset(seed=1)
    done = False
    while not done:
        observation, _, terminated, truncated, _ = env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        done = terminated or truncated
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


def test_without_the_extra_a_frame_names_the_extra():
    """Making an env with rgb_array needs nothing (SB3's make_vec_env asks for it on every env);
    the first frame says which extra to install."""
    code = ("import sys; sys.modules['resvg_py'] = None\n"
            "import gymnasium, dimsum.gymnasium\n"
            "env = gymnasium.make('dimsum/NiceBuns-v0', render_mode='rgb_array'); env.reset(seed=0)\n"
            "try:\n"
            "    env.render()\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert 'pip install "dimsum-games[render]"' in out and "resvg_py" in out
