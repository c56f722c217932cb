// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Reverter
/// @notice Exercises the various failure modes (revert reasons, custom errors, panics,
///         out-of-gas) plus simple state changes, events and block/chain introspection.
contract Reverter {
    error Bad(uint256 code);

    event Incremented(uint256 newValue);

    uint256 public counter;

    /// @notice Accept value so `selfBalance` in `chainInfo` can be non-zero.
    receive() external payable {}

    function revertWithReason() external pure {
        revert("nope: reason string");
    }

    function revertWithoutReason() external pure {
        revert();
    }

    function revertWithCustomError(uint256 code) external pure {
        revert Bad(code);
    }

    function requireNonZero(uint256 x) external pure returns (uint256) {
        require(x != 0, "x is zero");
        return x;
    }

    /// @notice assert(false) -> Panic(0x01)
    function assertFail() external pure {
        assert(false);
    }

    /// @notice Loops forever, consuming all gas supplied to the call.
    function outOfGas() external {
        uint256 i;
        while (true) {
            unchecked {
                ++i;
            }
            counter = i;
        }
    }

    function increment() external returns (uint256) {
        uint256 newValue = counter + 1;
        counter = newValue;
        emit Incremented(newValue);
        return newValue;
    }

    function chainInfo()
        external
        view
        returns (
            uint256 chainid,
            uint256 basefee,
            uint256 selfBalance,
            uint256 number,
            uint256 timestamp,
            bytes32 parentHash
        )
    {
        chainid = block.chainid;
        basefee = block.basefee;
        selfBalance = address(this).balance;
        number = block.number;
        timestamp = block.timestamp;
        parentHash = blockhash(block.number - 1);
    }
}
